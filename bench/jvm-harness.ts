// The JVM agent's harness next to JMH 1.37, each at its own defaults (issue F20), on this machine:
//   1. builds agents/jvm (mvn install, tests skipped) and bench/jmh (JMH benchmarks in one jar with
//      the harness and the workloads, so both sides run the same gzip code: GzipWorkload.gzip of
//      the same generated HTML-like payload, level 6);
//   2. for each case (gzip of 80 B and of 51,200 B), round by round, runs
//        - the harness as a user's job runs it: the workload's own settings only, so the harness's
//          defaults (1 s iterations, warm-up until steady state, 10 measured), in a fresh JVM
//          (dev.versus.harness.ForkMain, as the agent forks);
//        - JMH with its defaults: 5 forks × (5 warm-up + 5 measured iterations of 10 s), -prof gc;
//      alternating which goes first from round to round, so a drift of the machine's load cancels;
//   3. beside it, the equal-settings comparison: both at 5 + 5 iterations of 1 s, one fork each
//      (the harness with steadyState off), also alternated;
//   4. prints each round's figures and ratio, the medians, the harness's warm-up iterations, whether
//      it reached steady state, and the CV of its measured iterations.
// Figures only: nothing here asserts a time. The target is a median ratio of 0.95–1.05.
//
// Run time: JMH's defaults take 500 s a case and a round (2 cases, 2 rounds: about 40 minutes with
// the harness's runs). To bound it on a shared machine:
//   BENCH_ROUNDS=n          rounds (default 2: each side goes first once)
//   BENCH_JMH_FORKS=n       JMH's forks (default 5, JMH's)
//   BENCH_JMH_SECONDS=s     JMH's warm-up and measured iteration length (default 10, JMH's)
//   BENCH_EQUAL=0           skip the equal-settings comparison
//   BENCH_SIZES=80          the payload sizes, comma-separated (default 80,51200)
// The output says when JMH did not run at its defaults.
// Run: npx tsx bench/jvm-harness.ts
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const jar = path.join(root, "bench/jmh/target/benchmarks.jar");
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const JMH_FORKS = Number(process.env.BENCH_JMH_FORKS ?? 5);
const JMH_SECONDS = Number(process.env.BENCH_JMH_SECONDS ?? 10);
const EQUAL = process.env.BENCH_EQUAL !== "0";
const SIZES = (process.env.BENCH_SIZES ?? "80,51200").split(",").map(Number);
if (SIZES.some((size) => !Number.isInteger(size) || size < 1)) throw new Error(`BENCH_SIZES: whole numbers of bytes, comma-separated, e.g. 80,51200`);
const JMH_AT_DEFAULTS = JMH_FORKS === 5 && JMH_SECONDS === 10;
const work = fs.mkdtempSync(path.join(os.tmpdir(), "versus-jvm-bench-"));

function mvn(dir: string, args: string[]) {
  console.log(`$ (cd ${path.relative(root, dir) || "."} && mvn ${args.join(" ")})`);
  execFileSync("mvn", ["-B", "-q", ...args], { cwd: dir, stdio: "inherit" });
}

interface Figures {
  nsPerOp: number;
  allocPerOp: number;
}

interface HarnessFigures extends Figures {
  warmupIterations: number;
  warmupSeconds: number;
  steadyState: string;
  cvPercent: number;
  warnings: string[];
}

interface HarnessRun {
  metrics: { key: string; unit: string; summary?: { mean: number } }[];
  environment: {
    harness: { warmup: { iterations: number; timeMs: number; steadyState: string }; measuredCvPercent: number };
    warnings?: string[];
  };
}

/** One run of a workload in a fresh JVM, as the agent's forked run does it. */
function harness(settings: Record<string, unknown>): HarnessFigures {
  const out = path.join(work, `harness-${Date.now()}.json`);
  const result = spawnSync("java", ["-cp", jar, "dev.versus.harness.ForkMain", out], {
    input: JSON.stringify({ workload: "gzip", settings }),
    stdio: ["pipe", "ignore", "pipe"],
    encoding: "utf8",
  });
  const answer = JSON.parse(fs.readFileSync(out, "utf8")) as { run?: HarnessRun; error?: string };
  if (!answer.run) throw new Error(`harness: ${answer.error ?? "no result"}\n${result.stderr}`);
  const time = answer.run.metrics[0]!;
  const perNs: Record<string, number> = { ns: 1, us: 1e3, ms: 1e6, s: 1e9 };
  const alloc = answer.run.metrics.find((m) => m.key === "alloc_per_op")!;
  const { warmup, measuredCvPercent } = answer.run.environment.harness;
  return {
    nsPerOp: time.summary!.mean * perNs[time.unit]!,
    allocPerOp: alloc.summary!.mean,
    warmupIterations: warmup.iterations,
    warmupSeconds: warmup.timeMs / 1000,
    steadyState: warmup.steadyState,
    cvPercent: measuredCvPercent,
    warnings: answer.run.environment.warnings ?? [],
  };
}

interface JmhEntry {
  primaryMetric: { score: number; scoreUnit: string };
  secondaryMetrics: Record<string, { score: number }>;
}

/** GzipBenchmark.gzip at one size under JMH. */
function jmh(sizeBytes: number, forks: number, seconds: number): Figures {
  const out = path.join(work, `jmh-${Date.now()}.json`);
  const iteration = `${seconds}s`;
  const args = ["-jar", jar, "GzipBenchmark.gzip", "-p", `sizeBytes=${sizeBytes}`];
  args.push("-f", String(forks), "-wi", "5", "-w", iteration, "-i", "5", "-r", iteration, "-prof", "gc", "-rf", "json", "-rff", out);
  execFileSync("java", args, { stdio: ["ignore", "ignore", "inherit"] });
  const [entry] = JSON.parse(fs.readFileSync(out, "utf8")) as JmhEntry[];
  if (!entry || entry.primaryMetric.scoreUnit !== "ns/op") throw new Error(`JMH ${sizeBytes} B: no result in ns/op`);
  return { nsPerOp: entry.primaryMetric.score, allocPerOp: entry.secondaryMetrics["gc.alloc.rate.norm"]?.score ?? NaN };
}

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const us = (ns: number) => (ns / 1000).toLocaleString("en-US", { maximumFractionDigits: 3, minimumFractionDigits: 3 });

function table(rows: string[][]) {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  for (const row of rows) console.log(row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join("  "));
}

interface Round {
  first: "harness" | "JMH";
  harness: HarnessFigures;
  jmh: Figures;
}

/** Both sides, the order alternating by round. */
function alternate(round: number, runHarness: () => HarnessFigures, runJmh: () => Figures): Round {
  if (round % 2 === 1) {
    const h = runHarness();
    return { first: "harness", harness: h, jmh: runJmh() };
  }
  const j = runJmh();
  return { first: "JMH", harness: runHarness(), jmh: j };
}

/** A round's figures as soon as it ends, so a run cut short still shows what it measured. */
function progress(what: string, r: Round) {
  const h = r.harness;
  console.log(
    `  ${what}: harness ${us(h.nsPerOp)} µs/op, JMH ${us(r.jmh.nsPerOp)} µs/op, ratio ${(h.nsPerOp / r.jmh.nsPerOp).toFixed(3)}; ` +
      `warm-up ${h.warmupIterations} iterations (${h.warmupSeconds.toFixed(1)} s, ${h.steadyState}), CV ${h.cvPercent.toFixed(1)}%`,
  );
}

function report(title: string, rounds: Round[]) {
  console.log(`\n${title}`);
  const rows = [["round", "first", "harness µs/op", "JMH µs/op", "ratio", "warm-up its", "warm-up s", "steady state", "CV %", "harness B/op", "JMH B/op"]];
  rounds.forEach((r, i) =>
    rows.push([
      String(i + 1),
      r.first,
      us(r.harness.nsPerOp),
      us(r.jmh.nsPerOp),
      (r.harness.nsPerOp / r.jmh.nsPerOp).toFixed(3),
      String(r.harness.warmupIterations),
      r.harness.warmupSeconds.toFixed(1),
      r.harness.steadyState,
      r.harness.cvPercent.toFixed(1),
      r.harness.allocPerOp.toFixed(0),
      r.jmh.allocPerOp.toFixed(0),
    ]),
  );
  rows.push([
    "median",
    "",
    us(median(rounds.map((r) => r.harness.nsPerOp))),
    us(median(rounds.map((r) => r.jmh.nsPerOp))),
    median(rounds.map((r) => r.harness.nsPerOp / r.jmh.nsPerOp)).toFixed(3),
    String(median(rounds.map((r) => r.harness.warmupIterations))),
    median(rounds.map((r) => r.harness.warmupSeconds)).toFixed(1),
    "",
    median(rounds.map((r) => r.harness.cvPercent)).toFixed(1),
    median(rounds.map((r) => r.harness.allocPerOp)).toFixed(0),
    median(rounds.map((r) => r.jmh.allocPerOp)).toFixed(0),
  ]);
  table(rows);
  for (const [i, r] of rounds.entries()) for (const warning of r.harness.warnings) console.log(`  round ${i + 1}: harness warning: ${warning}`);
}

try {
  mvn(path.join(root, "agents/jvm"), ["install", "-DskipTests"]);
  mvn(path.join(root, "bench/jmh"), ["package"]);

  const jmhDefaults = `JMH ${JMH_AT_DEFAULTS ? "at its defaults" : "NOT at its defaults"}: -f ${JMH_FORKS} -wi 5 -w ${JMH_SECONDS}s -i 5 -r ${JMH_SECONDS}s`;
  const started = Date.now();
  for (const sizeBytes of SIZES) {
    const own = { sizeBytes, compress: true, level: 6, seed: 1 };
    const defaults: Round[] = [];
    const equal: Round[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      console.log(`gzip ${sizeBytes} B, round ${round}/${ROUNDS} (${((Date.now() - started) / 60_000).toFixed(1)} min in)`);
      defaults.push(
        alternate(
          round,
          () => harness(own),
          () => jmh(sizeBytes, JMH_FORKS, JMH_SECONDS),
        ),
      );
      progress("each at its defaults", defaults.at(-1)!);
      if (EQUAL) {
        const fixed = { ...own, steadyState: false, warmupIterations: 5, warmupTime: 1000, iterations: 5, iterationTime: 1000 };
        equal.push(
          alternate(
            round,
            () => harness(fixed),
            () => jmh(sizeBytes, 1, 1),
          ),
        );
        progress("equal settings", equal.at(-1)!);
      }
    }
    report(`gzip ${sizeBytes} B — each at its defaults (the harness: 1 s iterations, warm-up until steady, 10 measured; ${jmhDefaults})`, defaults);
    if (EQUAL) report(`gzip ${sizeBytes} B — equal settings: 5 + 5 iterations of 1 s, one fork each (the harness with steadyState off)`, equal);
  }
  console.log(
    `\ntarget: median ratio 0.95–1.05 at the defaults. Load average now: ${os.loadavg()[0]!.toFixed(2)} on ${os.availableParallelism()} cores ` +
      `(other processes share them: figures move from round to round). Took ${((Date.now() - started) / 60_000).toFixed(1)} min.`,
  );
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
