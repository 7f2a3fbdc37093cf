// Real processes for the reliability tests: Versus web servers (`next start` on the production
// build, on the test run's database) and agents (agents/reference, agents/go), each a child
// process the test can stop, SIGKILL or restart, with its output kept for the assertions and
// for the failure message.
import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { jvmAgentJars } from "../../scripts/lib/jvm-agent-build";
import { waitForHealth } from "../../scripts/lib/wait-for-health";
import { freePort } from "../free-port";

const root = path.resolve(import.meta.dirname, "../..");
const agentMain = path.join(root, "agents/reference/main.ts");

/** A child process whose output lines are kept; exit() resolves with its code or signal. */
export class Child {
  readonly lines: string[] = [];
  private readonly exitPromise: Promise<number | NodeJS.Signals>;

  constructor(
    readonly label: string,
    readonly process: ChildProcess,
  ) {
    for (const stream of [process.stdout, process.stderr]) if (stream) readline.createInterface({ input: stream }).on("line", (line) => this.lines.push(line));
    this.exitPromise = new Promise((resolve) => process.once("exit", (code, signal) => resolve(signal ?? code ?? 0)));
  }

  get running(): boolean {
    return this.process.exitCode === null && this.process.signalCode === null;
  }

  exit(): Promise<number | NodeJS.Signals> {
    return this.exitPromise;
  }

  /** Sends `signal` and waits for the process to end. */
  async stop(signal: NodeJS.Signals = "SIGTERM"): Promise<number | NodeJS.Signals> {
    if (this.running) this.process.kill(signal);
    return this.exitPromise;
  }

  /** The last lines of output, for a failure message. */
  tail(count = 30): string {
    return `--- ${this.label} ---\n${this.lines.slice(-count).join("\n")}`;
  }
}

export interface ServerOptions {
  databaseUrl: string;
  port?: number;
  env?: Record<string, string>;
}

/** A Versus web server on the production build; resolves once /api/health answers. */
export async function startServer(options: ServerOptions): Promise<Child & { url: string; port: number }> {
  const port = options.port ?? (await freePort());
  const child = new Child(
    `server :${port}`,
    // The production server `npm start` runs: Next.js behind scripts/serve.ts, which serves the
    // agent routes itself. In this very process (tsx's CLI would run it in a child), so that a
    // SIGKILL kills the server.
    spawn(process.execPath, ["--import", "tsx", "scripts/serve.ts"], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        NEXT_TELEMETRY_DISABLED: "1",
        PORT: String(port),
        HOSTNAME: "127.0.0.1",
        DATABASE_URL: options.databaseUrl,
        BETTER_AUTH_SECRET: process.env.BETTER_AUTH_SECRET ?? crypto.randomBytes(32).toString("base64url"),
        // One process, the one the tests signal, unless a test asks for more (server-workers.rel.test.ts).
        VERSUS_WORKERS: "1",
        ...options.env,
      },
    }),
  );
  const url = `http://127.0.0.1:${port}`;
  const answered = await waitForHealth(url, { keepWaiting: () => child.running, timeoutMs: 120_000, intervalMs: 200 }).catch((error: Error) => {
    throw new Error(`${error.message}\n${child.tail()}`);
  });
  if (!answered) throw new Error(`the server on port ${port} exited before it answered\n${child.tail()}`);
  return Object.assign(child, { url, port });
}

export interface AgentOptions {
  url: string;
  enrollmentToken: string;
  name: string;
  /** Its credential and result buffer; a new temporary directory when left out. */
  stateDir?: string;
  shutdownGraceSeconds?: number;
  /** A versus-agent binary (agents/go) to run instead of the reference agent. */
  goBinary?: string;
  /** The JVM agent's jar instead of the reference agent (see startJvmAgent). */
  jvm?: boolean;
  /** More environment variables for the agent (e.g. the JVM agent's VERSUS_AGENT_WORKLOADS). */
  env?: Record<string, string>;
}

/** An agent process (the reference agent, or the Go agent). `stateDir` keeps its credential and buffer across restarts. */
export function startAgent(options: AgentOptions): Child & { stateDir: string } {
  const stateDir = options.stateDir ?? fs.mkdtempSync(path.join(os.tmpdir(), `versus-rel-${options.name}-`));
  const [command, args] = options.goBinary
    ? [options.goBinary, ["agent"]]
    : options.jvm
      ? ["java", ["-jar", jvmAgentJars(root).jar]]
      : [process.execPath, ["--import", "tsx", agentMain]];
  const child = new Child(
    `agent ${options.name}${options.jvm ? " (jvm)" : ""}`,
    spawn(command, args, {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        VERSUS_URL: options.url,
        VERSUS_ENROLLMENT_TOKEN: options.enrollmentToken,
        VERSUS_AGENT_NAME: options.name,
        VERSUS_AGENT_CREDENTIAL_FILE: path.join(stateDir, "credential.json"),
        VERSUS_AGENT_BUFFER_DIR: path.join(stateDir, "buffer"),
        ...(options.jvm ? { VERSUS_AGENT_PLUGINS_DIR: path.join(stateDir, "plugins") } : {}),
        VERSUS_AGENT_SHUTDOWN_GRACE_SECONDS: String(options.shutdownGraceSeconds ?? 2),
        VERSUS_AGENT_CLAIM_JITTER_MS: "100",
        ...options.env,
      },
    }),
  );
  return Object.assign(child, { stateDir });
}

/** Polls `check` until it returns a value other than undefined/false. No fixed sleeps in tests. */
export async function eventually<T>(
  what: string,
  check: () => Promise<T | undefined | false> | T | undefined | false,
  options: { timeoutMs?: number; context?: () => string } = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${options.context ? `\n${options.context()}` : ""}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A JVM agent process (java -jar versus-agent-jvm.jar, built as npm start builds it: jvm-agent-kit.ts) with the same environment as startAgent. */
export function startJvmAgent(options: AgentOptions): Child & { stateDir: string } {
  return startAgent({ ...options, jvm: true });
}
