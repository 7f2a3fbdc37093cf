// The JVM agent's harness next to JMH (issue F8), on this machine:
//   1. builds agents/jvm (mvn install, tests skipped) and bench/jmh (JMH 1.37 benchmarks in one
//      jar with the harness and the workloads, so both sides run the same gzip code);
//   2. runs the harness's `gzip` workload at 80 B and 50 KB (compress, level 6, seed 1) in a fresh
//      JVM each, as the agent does (dev.versus.harness.ForkMain), with JMH's iteration scheme:
//      5 warm-up and 5 measured iterations of 1 s;
//   3. runs the equivalent JMH benchmark (one fork, the same iterations, -prof gc);
//   4. prints side by side the mean time per operation (target: within ±5% of JMH's score) and
//      the allocated bytes per operation (target: within 1% of gc.alloc.rate.norm), and each
//      side's own cost per operation with an empty operation (the harness timed in batches, and
//      with every operation timed alone).
// Figures only: nothing here asserts a time. Takes about 2 minutes.
// Run: npx tsx bench/jvm-harness.ts
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const jar = path.join(root, "bench/jmh/target/benchmarks.jar");
const ITERATIONS = { warmupIterations: 5, warmupTime: 1000, iterations: 5, iterationTime: 1000 };
const work = fs.mkdtempSync(path.join(os.tmpdir(), "versus-jvm-bench-"));

function mvn(dir: string, args: string[]) {
  console.log(`$ (cd ${path.relative(root, dir) || "."} && mvn ${args.join(" ")})`);
  execFileSync("mvn", ["-B", "-q", ...args], { cwd: dir, stdio: "inherit" });
}

interface HarnessFigures {
  nsPerOp: number;
  allocPerOp: number;
  batchSize: number;
}

/** One run of a workload in a fresh JVM, as the agent's forked run does it. */
function harness(workload: string, settings: Record<string, unknown>): HarnessFigures {
  const out = path.join(work, `harness-${workload}-${Date.now()}.json`);
  const result = spawnSync("java", ["-cp", jar, "dev.versus.harness.ForkMain", out], {
    input: JSON.stringify({ workload, settings: { ...ITERATIONS, ...settings } }),
    stdio: ["pipe", "inherit", "pipe"],
    encoding: "utf8",
  });
  const answer = JSON.parse(fs.readFileSync(out, "utf8")) as {
    run?: { metrics: { key: string; unit: string; summary?: { mean: number } }[]; environment: { harness: { batchSize: number } } };
    error?: string;
  };
  if (!answer.run) throw new Error(`harness ${workload}: ${answer.error ?? "no result"}\n${result.stderr}`);
  const time = answer.run.metrics[0]!;
  const perNs: Record<string, number> = { ns: 1, us: 1e3, ms: 1e6, s: 1e9 };
  const alloc = answer.run.metrics.find((m) => m.key === "alloc_per_op")!;
  return { nsPerOp: time.summary!.mean * perNs[time.unit]!, allocPerOp: alloc.summary!.mean, batchSize: answer.run.environment.harness.batchSize };
}

interface JmhEntry {
  benchmark: string;
  params?: Record<string, string>;
  primaryMetric: { score: number; scoreUnit: string };
  secondaryMetrics: Record<string, { score: number }>;
}

function jmh(): JmhEntry[] {
  const out = path.join(work, "jmh.json");
  const args = ["-jar", jar, "-f", "1", "-wi", "5", "-w", "1s", "-i", "5", "-r", "1s", "-prof", "gc", "-rf", "json", "-rff", out];
  console.log(`$ java ${args.join(" ")}`);
  execFileSync("java", args, { stdio: ["ignore", "ignore", "inherit"] });
  return JSON.parse(fs.readFileSync(out, "utf8")) as JmhEntry[];
}

const pct = (a: number, b: number) => `${a >= b ? "+" : ""}${(((a - b) / b) * 100).toFixed(1)}%`;
const num = (x: number, digits = 1) => x.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });

try {
  mvn(path.join(root, "agents/jvm"), ["install", "-DskipTests"]);
  mvn(path.join(root, "bench/jmh"), ["package"]);

  console.log("harness: gzip 80 B, gzip 50 KB, empty (batched), empty (each operation timed alone) …");
  const h80 = harness("gzip", { sizeBytes: 80, compress: true, level: 6, seed: 1 });
  const h50k = harness("gzip", { sizeBytes: 51_200, compress: true, level: 6, seed: 1 });
  const hEmpty = harness("empty", {});
  const hEmptyAlone = harness("empty", { batchSize: 1 });

  console.log("JMH: the same, with -prof gc …");
  const entries = jmh();
  const find = (name: string, size?: number) => {
    const entry = entries.find((e) => e.benchmark.endsWith(name) && (size === undefined || e.params?.sizeBytes === String(size)));
    if (!entry) throw new Error(`no JMH result for ${name} ${size ?? ""}`);
    return entry;
  };

  const rows: string[][] = [["case", "harness ns/op", "JMH ns/op", "ratio", "harness B/op", "JMH B/op", "diff", "batch"]];
  for (const [label, h, entry] of [
    ["gzip 80 B", h80, find("GzipBenchmark.gzip", 80)],
    ["gzip 50 KB", h50k, find("GzipBenchmark.gzip", 51_200)],
    ["empty", hEmpty, find("EmptyBenchmark.empty")],
  ] as const) {
    const jAlloc = entry.secondaryMetrics["gc.alloc.rate.norm"]?.score ?? NaN;
    rows.push([label, num(h.nsPerOp, 2), num(entry.primaryMetric.score, 2), (h.nsPerOp / entry.primaryMetric.score).toFixed(3), num(h.allocPerOp), num(jAlloc), pct(h.allocPerOp, jAlloc), String(h.batchSize)]);
  }
  rows.push(["empty, timed alone", num(hEmptyAlone.nsPerOp, 2), "", "", num(hEmptyAlone.allocPerOp), "", "", String(hEmptyAlone.batchSize)]);
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  console.log("");
  for (const row of rows) console.log(row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join("  "));
  console.log("");
  console.log(`targets: time within ±5% of JMH (ratio 0.95–1.05), bytes within 1%. Load average now: ${os.loadavg()[0]!.toFixed(2)} on ${os.availableParallelism()} cores.`);
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
