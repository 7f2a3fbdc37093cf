// ghz (https://ghz.sh), the gRPC load tool bench/grpc-load.ts measures the Go agent's grpc
// workload against: finding it and running one closed-model run, read from its JSON report.
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { LoadFigures } from "./http-tools";

/** The ghz binary: $BENCH_GHZ, else `ghz` on PATH, else where `go install` puts it; exits with instructions when none runs. */
export function requireGhz(): string {
  const gopath = spawnSync("go", ["env", "GOPATH"], { encoding: "utf8" }).stdout?.trim();
  const candidates = [process.env.BENCH_GHZ, "ghz", gopath ? path.join(gopath, "bin", "ghz") : undefined];
  for (const candidate of candidates) {
    if (!candidate || (candidate.includes("/") && !fs.existsSync(candidate))) continue;
    if (!spawnSync(candidate, ["--version"]).error) return candidate;
  }
  console.error("ghz is not installed. With Go: go install github.com/bojand/ghz/cmd/ghz@latest (or set BENCH_GHZ to its path)");
  process.exit(2);
}

export interface GhzRun {
  /** host:port of the gRPC server. */
  target: string;
  /** package.Service/Method */
  call: string;
  /** The .proto file that defines it (ghz then needs no reflection). */
  proto: string;
  /** The request as JSON (ghz's -d). */
  data: unknown;
  concurrency: number;
  connections: number;
  seconds: number;
}

/** What ghz -O json prints that is used here (times in ns). */
interface GhzReport {
  count: number;
  rps: number;
  slowest: number;
  statusCodeDistribution?: Record<string, number>;
  latencyDistribution: { percentage: number; latency: number }[] | null;
}

/**
 * One ghz run (closed model: `concurrency` workers, each sending its next call when the previous
 * answered): its calls/s as ghz reports it (calls ÷ the run's time), p50, p99, slowest call and
 * how many calls ended with a status other than OK.
 */
export function runGhz(ghz: string, run: GhzRun): LoadFigures & { notOk: number } {
  const args = [
    "--insecure",
    // The request is one fixed message, as the grpc workload's is. By default ghz renders -d as a
    // Go template for every call, which here halved its small-message rate (64 B, 10 callers:
    // 7,218 vs 14,609 calls/s): the comparison is with ghz at its best for a fixed message.
    "--disable-template-functions",
    "--disable-template-data",
    "--proto",
    run.proto,
    "--call",
    run.call,
    "-d",
    JSON.stringify(run.data),
    "-c",
    String(run.concurrency),
    "--connections",
    String(run.connections),
    "-z",
    `${run.seconds}s`,
    "-O",
    "json",
    run.target,
  ];
  // The report lists every call (its "details"): tens of MB for a run of small messages.
  const out = execFileSync(ghz, args, { encoding: "utf8", maxBuffer: 1 << 30, stdio: ["ignore", "pipe", "inherit"] });
  const report = JSON.parse(out) as GhzReport;
  const ms = (percentage: number) => {
    const ns = report.latencyDistribution?.find((d) => d.percentage === percentage)?.latency;
    return ns === undefined ? undefined : ns / 1e6;
  };
  // Calls cut short when -z ends come back CANCELLED or UNAVAILABLE: a few per run are ghz's own.
  const notOk = Object.entries(report.statusCodeDistribution ?? {}).reduce((sum, [code, n]) => (code === "OK" ? sum : sum + n), 0);
  return { requestsPerSec: report.rps, p50Ms: ms(50), p99Ms: ms(99), maxMs: report.slowest / 1e6, notOk };
}
