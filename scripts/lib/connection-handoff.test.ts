// The primary's share-out (connection-handoff.ts) with real processes and sockets: two forked
// workers serve the connections handed to them; a burst of keep-alive connections splits evenly,
// and a new connection goes to the worker that holds fewer.
import { fork, type ChildProcess } from "node:child_process";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { freePort } from "~/test/free-port";
import { connectionDealer } from "./connection-handoff";

const workerScript = path.resolve(import.meta.dirname, "../../test/fixtures/handed-connections-worker.ts");
const children: ChildProcess[] = [];
let closeDealer: (() => void) | undefined;

afterEach(() => {
  closeDealer?.();
  for (const child of children.splice(0)) child.kill();
});

/** Two workers under a dealer on a free port; resolves once both serve. */
async function twoWorkers(env: Record<string, string> = {}) {
  const port = await freePort();
  const errors: Error[] = [];
  const dealer = connectionDealer<ChildProcess>({ port, hostname: "127.0.0.1" }, (error) => errors.push(error));
  closeDealer = dealer.close;
  const serving = [0, 1].map(() => {
    const child = fork(workerScript, { execArgv: ["--import", "tsx"], env: { ...process.env, ...env }, stdio: ["ignore", "inherit", "inherit", "ipc"] });
    children.push(child);
    return new Promise<void>((resolve) => child.on("message", (message) => dealer.message(child, message) === "serving" && resolve()));
  });
  await Promise.all(serving);
  return { port, errors };
}

/** A keep-alive connection of its own, and the pid that answered on it. */
async function connect(port: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const pidOf = () =>
    new Promise<number>((resolve, reject) => {
      http
        .get({ host: "127.0.0.1", port, path: "/", agent }, (res) => {
          let body = "";
          res.on("data", (chunk: Buffer) => (body += chunk.toString()));
          res.on("end", () => resolve(Number(body)));
        })
        .on("error", reject);
    });
  const pid = await pidOf();
  // The same connection again: it stays with its worker.
  expect(await pidOf()).toBe(pid);
  return { pid, close: () => agent.destroy() };
}

const countBy = (pids: number[]) => [...pids.reduce((counts, pid) => counts.set(pid, (counts.get(pid) ?? 0) + 1), new Map<number, number>()).values()];

describe("connectionDealer", () => {
  it("splits a burst of keep-alive connections evenly, and gives a new one to the worker holding fewer", { timeout: 60_000 }, async () => {
    const { port, errors } = await twoWorkers();
    const burst = await Promise.all(Array.from({ length: 40 }, () => connect(port)));
    expect(countBy(burst.map((c) => c.pid)).sort()).toEqual([20, 20]);

    // Ten of the first worker's connections close: the next ten connections all go to it.
    const first = burst[0]?.pid as number;
    for (const connection of burst.filter((c) => c.pid === first).slice(0, 10)) connection.close();
    await new Promise((resolve) => setTimeout(resolve, 300)); // the workers' word that they closed
    const more = [];
    for (let i = 0; i < 10; i++) more.push(await connect(port));
    expect(more.map((c) => c.pid)).toEqual(more.map(() => first));
    for (const connection of [...burst, ...more]) connection.close();
    expect(errors).toEqual([]);
  });

  it("a worker still cuts off a client that is too slow to send its headers", { timeout: 60_000 }, async () => {
    const { port } = await twoWorkers({ HEADERS_TIMEOUT_MS: "500" });
    const socket = net.connect(port, "127.0.0.1");
    socket.write("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n"); // and never the blank line
    let answer = "";
    socket.on("data", (chunk: Buffer) => (answer += chunk.toString()));
    const started = performance.now();
    await new Promise((resolve) => socket.on("close", resolve));
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(performance.now() - started).toBeLessThan(30_000);
  });

  it("opens no port once closed, though a worker says it serves after", async () => {
    const port = await freePort();
    const dealer = connectionDealer<ChildProcess>({ port, hostname: "127.0.0.1" }, () => {});
    dealer.close();
    const worker = { send: () => true } as unknown as ChildProcess;
    expect(dealer.message(worker, { versus: "versus:serving" })).toBe("serving");
    const refused = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, "127.0.0.1");
      socket.on("connect", () => resolve(!socket.destroy()));
      socket.on("error", () => resolve(true));
    });
    expect(refused).toBe(true);
  });

  it("tells the primary when the port cannot be had", { timeout: 60_000 }, async () => {
    const { port, errors } = await twoWorkers();
    const second = connectionDealer<ChildProcess>({ port, hostname: "127.0.0.1" }, (error) => errors.push(error));
    const child = children[0] as ChildProcess;
    second.message(child, { versus: "versus:serving" });
    await expect.poll(() => errors.map((e) => (e as NodeJS.ErrnoException).code)).toEqual(["EADDRINUSE"]);
    second.close();
  });
});
