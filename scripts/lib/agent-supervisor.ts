// Runs an agent as a child process of `npm start`: its log lines prefixed, restarted with
// exponential backoff when it crashes, stopped with SIGTERM (then SIGKILL if it hangs). Exit
// code 0 (the server told it to stop) and 78 (its credential or configuration was refused) are
// not crashes: restarting would not help, so it stays stopped and says why — after exit 0, until
// `resumed` says a user resumed it (Resume on the Agents page), then it starts again.
//
// The child gets a process group of its own, so a Ctrl-C in the terminal reaches only `npm start`,
// which then stops the agent once, in order (a second signal would make the agent exit at once,
// without releasing its job). It also gets an IPC channel: if `npm start` dies without stopping
// it (SIGKILL), the channel closes and the agent stops by itself instead of living on.
import { spawn, type ChildProcess } from "node:child_process";
import readline from "node:readline";

export const EXIT_CONFIG = 78;

export interface SupervisorOptions {
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  log: (line: string) => void;
  /** First restart delay; doubles per crash up to maxRestartDelayMs. */
  restartDelayMs?: number;
  maxRestartDelayMs?: number;
  /** A child that ran this long counts as healthy: the next crash restarts after restartDelayMs again. */
  healthyAfterMs?: number;
  /** How long stop() waits after SIGTERM before SIGKILL. */
  stopTimeoutMs?: number;
  /** After exit 0: resolves true once the agent may run again (false: never); `signal` aborts when the supervisor stops. */
  resumed?: (signal: AbortSignal) => Promise<boolean>;
}

export interface Supervisor {
  /** Resolves once the child has exited and will not be restarted. */
  stop(): Promise<void>;
  /** The running child's pid, if one runs. */
  pid(): number | undefined;
  /** How many times the child was started. */
  starts(): number;
}

export function superviseAgent(options: SupervisorOptions): Supervisor {
  const baseDelay = options.restartDelayMs ?? 1000;
  const maxDelay = options.maxRestartDelayMs ?? 60_000;
  const healthyAfter = options.healthyAfterMs ?? 60_000;
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  let restartTimer: NodeJS.Timeout | undefined;
  let stopping = false;
  let delay = baseDelay;
  let starts = 0;
  const stopped = new AbortController();

  const start = () => {
    starts++;
    const startedAt = Date.now();
    const current = spawn(options.command, options.args, { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe", "ipc"], detached: true });
    child = current;
    for (const stream of [current.stdout, current.stderr]) if (stream) readline.createInterface({ input: stream }).on("line", options.log);
    exited = new Promise((resolve) => {
      current.once("exit", (code, signal) => {
        child = undefined;
        resolve();
        if (stopping) return;
        if (code === 0 && options.resumed) {
          options.log("stopped (the server asked it to); it starts again when it is resumed on the Agents page");
          void options.resumed(stopped.signal).then(
            (resumed) => {
              if (!resumed || stopping) return;
              options.log("resumed on the Agents page; starting it again");
              delay = baseDelay;
              start();
            },
            (error: unknown) => options.log(`cannot tell whether it is resumed (${error instanceof Error ? error.message : String(error)}); not restarted`),
          );
          return;
        }
        if (code === 0) return options.log("stopped (the server asked it to); not restarted");
        if (code === EXIT_CONFIG) return options.log("cannot run (see the lines above); not restarted");
        if (Date.now() - startedAt >= healthyAfter) delay = baseDelay;
        options.log(`exited (${signal ?? `code ${code}`}); restarting in ${Math.round(delay / 1000)} s`);
        restartTimer = setTimeout(start, delay);
        delay = Math.min(maxDelay, delay * 2);
      });
    });
  };
  start();

  return {
    async stop() {
      stopping = true;
      stopped.abort();
      clearTimeout(restartTimer);
      const running = child;
      if (!running) return;
      running.kill("SIGTERM");
      const killTimer = setTimeout(() => running.kill("SIGKILL"), options.stopTimeoutMs ?? 20_000);
      await exited;
      clearTimeout(killTimer);
    },
    pid: () => child?.pid,
    starts: () => starts,
  };
}
