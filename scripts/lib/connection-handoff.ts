// How the primary of several server processes (./worker-processes.ts) shares out connections: it
// listens on the port itself and hands each new connection to the worker holding the fewest open
// ones, ties taken in turn. node:cluster's own round robin gives a connection to whichever worker
// has answered for the last one, so a burst of connections (a CI fleet, a load generator opening
// a hundred at once) lands unevenly: under bench/load.ts one worker held 71 keep-alive connections
// and the other 41, and the uploaders on the first waited twice as long. A keep-alive connection
// stays with its worker, so the split made at connect time is the split for good.
import net from "node:net";
import type { Server } from "node:http";

const HANDOFF = "versus:connection";
const CLOSED = "versus:connection-closed";
const SERVING = "versus:serving";

type Message = { versus?: string };
const kindOf = (message: unknown) => (typeof message === "object" && message !== null ? (message as Message).versus : undefined);

/** A process connections are handed to: a node:cluster worker (or any child with an IPC channel). */
interface Taker {
  send(message: unknown, socket: net.Socket, callback: (error: Error | null) => void): boolean;
}

/** In the primary: the listening socket and the open connections of each serving worker. */
export function connectionDealer<Worker extends Taker>(address: { port: number; hostname: string }, onListenError: (error: Error) => void) {
  const open = new Map<Worker, number>();
  const waiting: net.Socket[] = [];
  let turn = 0;
  let listener: net.Server | undefined;
  let closed = false;

  const handOut = (socket: net.Socket) => {
    const serving = [...open.keys()];
    if (serving.length === 0) {
      // Every worker is gone or restarting: the connection waits, unread, for the next one to serve.
      waiting.push(socket);
      return;
    }
    let chosen = serving[turn % serving.length] as Worker;
    for (let i = 1; i < serving.length; i++) {
      const worker = serving[(turn + i) % serving.length] as Worker;
      if ((open.get(worker) as number) < (open.get(chosen) as number)) chosen = worker;
    }
    turn++;
    open.set(chosen, (open.get(chosen) as number) + 1);
    chosen.send({ versus: HANDOFF }, socket, (error) => {
      if (!error) return;
      // Not handed over (the worker is going): it will never say this connection closed.
      socket.destroy();
      if (open.has(chosen)) open.set(chosen, Math.max(0, (open.get(chosen) as number) - 1));
    });
  };

  return {
    /** A worker's message about its connections, or that it serves (then the port opens, if it was not yet). */
    message(worker: Worker, message: unknown): "serving" | undefined {
      const kind = kindOf(message);
      if (kind === CLOSED && open.has(worker)) open.set(worker, Math.max(0, (open.get(worker) as number) - 1));
      if (kind !== SERVING) return undefined;
      open.set(worker, 0);
      if (!listener && !closed) {
        // pauseOnConnect: the primary reads nothing; the worker starts reading the socket it is handed.
        const opening = net.createServer({ pauseOnConnect: true }, handOut);
        let listening = false;
        opening.once("listening", () => (listening = true));
        // Once listening, an error is a failed accept (too many open files, say), which passes, as
        // node:cluster's own primary lets it pass; only a port that cannot be had stops the server.
        opening.on("error", (error) => listening || onListenError(error));
        opening.listen(address.port, address.hostname);
        listener = opening;
      }
      for (const socket of waiting.splice(0)) handOut(socket);
      return "serving";
    },
    /** A worker has exited; whether it had said it serves. */
    gone(worker: Worker): boolean {
      return open.delete(worker);
    },
    close() {
      // For good: a worker that says it serves while the server stops opens nothing.
      closed = true;
      listener?.close();
      for (const socket of waiting.splice(0)) socket.destroy();
    },
  };
}

/**
 * In a worker: serve the connections the primary hands over with `server`, and tell the primary
 * when each closes and that this worker now serves.
 */
export function serveHandedConnections(server: Server) {
  process.on("message", (message: unknown, socket: unknown) => {
    if (kindOf(message) !== HANDOFF) return;
    const closed = () => process.connected && process.send?.({ versus: CLOSED });
    // A connection its client closed while it was on its way arrives without its socket.
    if (!(socket instanceof net.Socket)) return void closed();
    socket.once("close", closed);
    server.emit("connection", socket);
    socket.resume();
  });
  // Node's HTTP server starts tracking its connections (the headers and request timeouts that cut
  // off slow clients, closeAllConnections) on "listening", which a server that never listens
  // itself would not see.
  server.emit("listening");
  process.send?.({ versus: SERVING });
}
