// What the load benchmarks share: building versus-agent and versus-target, starting the target,
// and running wrk and `versus-agent run --workload http` (or grpc) against it.
import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { importWrk } from "../../server/importers/wrk";

const root = path.resolve(import.meta.dirname, "../..");
const goModule = path.join(root, "agents/go");

export interface GoBinaries {
  agent: string;
  target: string;
}

/** Builds versus-agent and versus-target into a temporary directory. */
export function buildGoBinaries(): GoBinaries {
  if (spawnSync("go", ["version"]).status !== 0) {
    throw new Error("`go` is not on PATH: install Go 1.23+ (https://go.dev/dl/) to build versus-agent");
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "versus-http-bench-"));
  const agent = path.join(dir, "versus-agent");
  const target = path.join(dir, "versus-target");
  execFileSync("go", ["build", "-o", agent, "./cmd/versus-agent"], { cwd: goModule, stdio: "inherit" });
  execFileSync("go", ["build", "-o", target, "./cmd/versus-target"], { cwd: goModule, stdio: "inherit" });
  return { agent, target };
}

/** Exits with instructions when wrk is missing. */
export function requireWrk() {
  if (spawnSync("wrk", ["--version"]).error) {
    console.error("wrk is not installed. On Debian/Ubuntu: sudo apt-get install -y wrk (or build it from https://github.com/wg/wrk)");
    process.exit(2);
  }
}

export interface Target {
  url: string;
  /** host:port of its gRPC service, when started with -grpc-addr. */
  grpcAddr: string | undefined;
  /** Its process id (for a `process` probe on it). */
  pid: number;
  stop(): Promise<void>;
}

/**
 * Starts versus-target on a free loopback port; `args` e.g. ["-stall-every", "5s"]. With
 * "-grpc-addr", 127.0.0.1:0 it serves gRPC too, and the second line it prints names where.
 */
export async function startTarget(binary: string, args: string[] = []): Promise<Target> {
  const child: ChildProcess = spawn(binary, ["-addr", "127.0.0.1:0", ...args], { stdio: ["ignore", "pipe", "inherit"] });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const exited = new Promise<never>((_, reject) => child.once("exit", (code) => reject(new Error(`versus-target exited (${code}) before listening`))));
  exited.catch(() => undefined); // its exit after listening (stop) is no error
  const expect = async (pattern: RegExp) => {
    const line = await Promise.race([lines.next(), exited]);
    if (line.done) throw new Error(`versus-target ended before printing ${pattern} (its error is above)`);
    const match = pattern.exec(line.value);
    if (!match?.[1]) throw new Error(`versus-target printed "${line.value}", not ${pattern}`);
    return match[1];
  };
  const url = await expect(/listening on (\S+)/);
  const grpcAddr = args.some((a) => /^--?grpc-addr$/.test(a)) ? await expect(/listening for gRPC on (\S+)/) : undefined;
  return {
    url,
    grpcAddr,
    pid: child.pid!,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
    },
  };
}

export interface LoadFigures {
  requestsPerSec: number;
  p99Ms: number | undefined;
  p50Ms?: number;
  maxMs?: number;
}

/** wrk with 2 threads (this machine's cores) and its latency distribution, parsed by the wrk importer. */
export function runWrk(url: string, connections: number, seconds: number): LoadFigures {
  const out = execFileSync("wrk", ["-t2", `-c${connections}`, `-d${seconds}s`, "--latency", url], { encoding: "utf8" });
  const metrics = importWrk(out).benchmarks[0]?.repetitions[0]?.metrics ?? [];
  // wrk's Requests/sec is the run's value (one figure, no values to summarise).
  const requests = metrics.find((m) => m.key === "requests_per_sec");
  const rps = requests?.value ?? requests?.summary?.mean;
  if (rps === undefined) throw new Error(`no Requests/sec in wrk's printout:\n${out}`);
  return { requestsPerSec: rps, p99Ms: metrics.find((m) => m.key === "latency")?.summary?.p99 };
}

interface RunDocument {
  environment: Record<string, unknown>;
  warnings?: string[];
  metrics: { key: string; value?: number; summary?: { mean: number; p50?: number; p99?: number; max?: number }; samples?: number[] }[];
}

/**
 * `versus-agent run --workload http --json` (or `workload`): the run document's throughput and
 * latency p50, p99 and max, and the mean of every metric (a probe's among them). `args`: more
 * flags, e.g. `--probe name=…,pid=…`.
 */
export function runAgentJson(
  agent: string,
  settings: Record<string, unknown>,
  args: string[] = [],
  workload = "http",
): LoadFigures & { warnings: string[]; runWarnings: string[]; means: Record<string, number | undefined> } {
  const out = execFileSync(agent, ["run", "--workload", workload, "--json", "--settings", JSON.stringify(settings), ...args], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
  });
  const run = JSON.parse(out) as RunDocument;
  const metric = (key: string) => run.metrics.find((m) => m.key === key)?.summary;
  // The run's figure: its value when the workload gives one (the http workload's throughput), else
  // its mean (a probe's metric carries only its values, one per interval).
  const figure = (key: string) => {
    const found = run.metrics.find((m) => m.key === key);
    const samples = found?.samples ?? [];
    return found?.value ?? found?.summary?.mean ?? (samples.length > 0 ? samples.reduce((a, b) => a + b, 0) / samples.length : undefined);
  };
  const throughput = figure("throughput");
  if (throughput === undefined) throw new Error("no throughput in the run document");
  const means = Object.fromEntries(run.metrics.map((m) => [m.key, figure(m.key)]));
  const warnings = (run.environment.warnings as string[] | undefined) ?? [];
  const latency = metric("latency");
  return { requestsPerSec: throughput, p50Ms: latency?.p50, p99Ms: latency?.p99, maxMs: latency?.max, warnings, runWarnings: run.warnings ?? [], means };
}

/** `versus-agent run --workload http` with its human summary. */
export function runAgentSummary(agent: string, settings: Record<string, unknown>): string {
  return execFileSync(agent, ["run", "--workload", "http", "--settings", JSON.stringify(settings)], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
}

export const fixed = (value: number | undefined, digits = 1) => (value === undefined ? "?" : value.toFixed(digits));
