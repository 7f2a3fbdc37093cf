// Every core: scripts/serve.ts serves with VERSUS_WORKERS processes (one per core when unset),
// as the primary of node:cluster. Each worker is a whole server (Next.js behind the HTTP server
// of serve.ts, its own database pool); the primary listens on the port and hands each connection
// to the worker with the fewest open ones (./connection-handoff.ts). What each process keeps for
// itself stays correct with several:
// - comparisons are cached per process with a key read from the database on every read (the
//   variants' runsVersion, kept by triggers), so a run stored through one process is seen by the
//   next read through any other;
// - wake-ups (a job to claim, runs to follow up) are NOTIFYs every process LISTENs to;
// - sign-in rate limits and sessions live in the database;
// - admission (ingest-turns.ts) and the pool are per process, so N processes take up to N times
//   the connections (N × 10, plus one LISTEN connection per channel each);
// - the background work that follows stored runs is claimed from the database by any process
//   that does it (server/background/worker.ts); only the first worker does, unless
//   VERSUS_BACKGROUND_WORKER=0 says none should.
// A worker that exits after it was serving is started again; one that exits before it ever
// served (a bad setting or a broken build) stops the server with its exit code, as a single
// process would — decided by the worker's own word that it serves, not by a time since its start,
// which a fast or a loaded machine would each get wrong. SIGTERM or SIGINT stops every worker, then
// the primary.
import cluster, { type Worker } from "node:cluster";
import os from "node:os";
import { env } from "../../server/core/env";
import { connectionDealer } from "./connection-handoff";

/** How many server processes to run: VERSUS_WORKERS, else one per core. */
export function serverProcessCount(): number {
  return env.VERSUS_WORKERS ?? os.availableParallelism();
}

/** Runs `count` workers until a signal stops them (resolves 0) or one fails at start-up (resolves its code). */
export function superviseWorkers(count: number, log: (line: string) => void): Promise<number> {
  return new Promise((resolve) => {
    // Each worker's place in the order; whether it serves is the dealer's to know.
    const started = new Map<Worker, number>();
    let stopping: number | undefined;
    const dealer = connectionDealer({ port: env.PORT, hostname: env.HOSTNAME }, (error) => {
      log(`cannot listen on ${env.HOSTNAME}:${env.PORT}: ${error.message}`);
      stop(1);
    });

    const fork = (index: number) => {
      const worker = cluster.fork({ ...(index > 0 ? { VERSUS_BACKGROUND_WORKER: "0" } : {}) });
      started.set(worker, index);
      worker.on("message", (message: unknown) => dealer.message(worker, message));
    };
    const stop = (code: number) => {
      stopping ??= code;
      dealer.close();
      for (const worker of started.keys()) if (!worker.isDead()) worker.process.kill("SIGTERM");
      if (started.size === 0) resolve(stopping);
    };

    cluster.on("exit", (worker, code, signal) => {
      const index = started.get(worker) ?? -1;
      started.delete(worker);
      const served = dealer.gone(worker);
      if (stopping !== undefined) {
        if (started.size === 0) resolve(stopping);
        return;
      }
      const how = signal ? `on ${signal}` : `with code ${code}`;
      if (!served) {
        log(`server worker ${index + 1} exited ${how} while starting: stopping`);
        stop(code || 1);
        return;
      }
      log(`server worker ${index + 1} exited ${how}: starting another`);
      fork(index);
    });
    for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => stop(0));

    log(`${count} server processes (VERSUS_WORKERS)`);
    for (let index = 0; index < count; index++) fork(index);
  });
}

/** In a worker: stop when the primary is gone (killed without stopping its workers). */
export function exitWithPrimary() {
  if (cluster.isWorker) process.once("disconnect", () => process.exit(0));
}
