// The JVM agent's harness next to JMH (issue F8), on this machine:
//   1. builds agents/jvm (mvn install, tests skipped) and bench/jmh (JMH 1.37 benchmarks in one
//      jar with the harness and the workloads, so both sides run the same gzip code);
//   2. runs the harness's `gzip` workload at 80 B and 50 KB (compress, level 6, seed 1) in a fresh
//      JVM each, as the agent does (dev.versus.harness.ForkMain), with JMH's iteration scheme:
//      5 warm-up and 5 measured iterations of 1 s;
//   3. runs the equivalent JMH benchmark (one fork, the same iterations, -prof gc), right after
//      the harness's run of the same case, for ROUNDS rounds (the machine is shared: interleaving
//      puts both sides under the same load, and each side's median over the rounds is compared);
//   4. prints side by side the mean time per operation (target: within ±5% of JMH's score) and
//      the allocated bytes per operation (target: within 1% of gc.alloc.rate.norm), and each
//      side's own cost per operation with an empty operation (the harness timed in batches, and
//      with every operation timed alone).
// Figures only: nothing here asserts a time. Takes about 1.5 minutes a round.
// Run: npx tsx bench/jvm-harness.ts   (VERSUS_BENCH_ROUNDS=n for other than 3 rounds)
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const jar = path.join(root, "bench/jmh/target/benchmarks.jar");
const ITERATIONS = { warmupIterations: 5, warmupTime: 1000, iterations: 5, iterationTime: 1000 };
const ROUNDS = Number(process.env.VERSUS_BENCH_ROUNDS ?? 3);
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

/** One JMH benchmark (a regexp and its params), one fork. */
function jmh(benchmark: string, params: string[]): { nsPerOp: number; allocPerOp: number } {
  const out = path.join(work, `jmh-${Date.now()}.json`);
  const args = [
    "-jar",
    jar,
    benchmark,
    ...params.flatMap((p) => ["-p", p]),
    "-f",
    "1",
    "-wi",
    "5",
    "-w",
    "1s",
    "-i",
    "5",
    "-r",
    "1s",
    "-prof",
    "gc",
    "-rf",
    "json",
    "-rff",
    out,
  ];
  execFileSync("java", args, { stdio: ["ignore", "ignore", "inherit"] });
  const [entry] = JSON.parse(fs.readFileSync(out, "utf8")) as JmhEntry[];
  if (!entry || entry.primaryMetric.scoreUnit !== "ns/op") throw new Error(`JMH ${benchmark}: no result in ns/op`);
  return { nsPerOp: entry.primaryMetric.score, allocPerOp: entry.secondaryMetrics["gc.alloc.rate.norm"]?.score ?? NaN };
}

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const pct = (a: number, b: number) => `${a >= b ? "+" : ""}${(((a - b) / b) * 100).toFixed(1)}%`;
const num = (x: number, digits = 1) => x.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });

try {
  mvn(path.join(root, "agents/jvm"), ["install", "-DskipTests"]);
  mvn(path.join(root, "bench/jmh"), ["package"]);

  const cases = [
    { label: "gzip 80 B", workload: "gzip", settings: { sizeBytes: 80, compress: true, level: 6, seed: 1 }, jmh: ["GzipBenchmark.gzip", "sizeBytes=80"] },
    {
      label: "gzip 50 KB",
      workload: "gzip",
      settings: { sizeBytes: 51_200, compress: true, level: 6, seed: 1 },
      jmh: ["GzipBenchmark.gzip", "sizeBytes=51200"],
    },
    { label: "empty", workload: "empty", settings: {}, jmh: ["EmptyBenchmark.empty"] },
  ];
  const results = cases.map(() => ({ harness: [] as HarnessFigures[], jmh: [] as { nsPerOp: number; allocPerOp: number }[] }));
  const alone: HarnessFigures[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [i, c] of cases.entries()) {
      console.log(`round ${round}/${ROUNDS}: ${c.label}: harness, then JMH`);
      results[i]!.harness.push(harness(c.workload, c.settings));
      const [benchmark, ...params] = c.jmh;
      results[i]!.jmh.push(jmh(benchmark!, params));
    }
    alone.push(harness("empty", { batchSize: 1 }));
  }

  const rows: string[][] = [["case", "harness ns/op", "JMH ns/op", "ratio", "ratios by round", "harness B/op", "JMH B/op", "diff", "batch"]];
  for (const [i, c] of cases.entries()) {
    const h = results[i]!.harness;
    const j = results[i]!.jmh;
    const hNs = median(h.map((x) => x.nsPerOp));
    const jNs = median(j.map((x) => x.nsPerOp));
    const hB = median(h.map((x) => x.allocPerOp));
    const jB = median(j.map((x) => x.allocPerOp));
    const byRound = h.map((x, r) => (x.nsPerOp / j[r]!.nsPerOp).toFixed(2)).join(" ");
    // Below half a byte (the empty case: JMH's counter noise) a percentage means nothing.
    const bytesDiff = Math.abs(hB) < 0.5 && Math.abs(jB) < 0.5 ? "both ≈ 0" : pct(hB, jB);
    rows.push([
      c.label,
      num(hNs, 2),
      num(jNs, 2),
      jNs > 0 && hNs > 0 ? (hNs / jNs).toFixed(3) : "—",
      byRound,
      num(hB),
      num(jB),
      bytesDiff,
      String(h[h.length - 1]!.batchSize),
    ]);
  }
  rows.push(["empty, timed alone", num(median(alone.map((x) => x.nsPerOp)), 2), "", "", "", num(median(alone.map((x) => x.allocPerOp))), "", "", "1"]);
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  console.log("");
  for (const row of rows) console.log(row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join("  "));
  console.log("");
  console.log(
    `targets: time within ±5% of JMH (ratio 0.95–1.05), bytes within 1%. Load average now: ${os.loadavg()[0]!.toFixed(2)} on ${os.availableParallelism()} cores.`,
  );
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
