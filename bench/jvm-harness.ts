// The JVM agent's harness next to JMH 1.37, each at its own defaults (issue F20), on this machine:
//   1. builds agents/jvm (mvn install, tests skipped) and bench/jmh (JMH benchmarks in one jar with
//      the harness and the workloads, so both sides run the same gzip code: GzipWorkload.gzip of
//      the same generated HTML-like payload, level 6);
//   2. for each case (gzip of 80 B and of 51,200 B), round by round, runs
//        - the harness as a user's job runs it: the workload's own settings only, so the harness's
//          defaults (3 forks, each: 1 s iterations, warm-up until steady state, 10 measured), each
//          fork a fresh JVM, merged into one run (dev.versus.harness.RunMain: Harness.run, as the
//          agent runs a job);
//        - JMH with its defaults: 5 forks × (5 warm-up + 5 measured iterations of 10 s), -prof gc;
//      alternating which goes first from round to round, so a drift of the machine's load cancels;
//   3. beside it, the equal-settings comparison: both at 5 + 5 iterations of 1 s, one fork each
//      (the harness with steadyState off and forks 1), also alternated;
//   4. prints each round's figures and ratio, the medians, the harness's warm-up iterations (all
//      forks told), whether it reached steady state, the CV of its measured iterations (all forks),
//      each side's per-fork means and their spread, and the load average before and after each run.
// On this machine one fork's figure of gzip of 80 B moves by a CV of about 12% from fork to fork,
// for JMH and the harness alike (agents/jvm/README.md, *Against JMH*): a single-fork comparison is
// a draw of two forks, which is why the harness's default is 3 forks and both sides' forks print.
// Figures only: nothing here asserts a time. The target is a median ratio of 0.95–1.05.
//
// Run time: JMH's defaults take 500 s a case and a round, the harness's about 1–2 minutes (2 cases,
// 2 rounds: about 45 minutes). To bound it on a shared machine:
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
  /** Each fork's mean time per operation, ns. */
  forkNsPerOp: number[];
}

interface HarnessFigures extends Figures {
  warmupIterations: number;
  warmupSeconds: number;
  steadyState: string;
  cvPercent: number;
  warnings: string[];
  /** Wall time of the whole run (every fork), s: what a user pressing Run waits. */
  runSeconds: number;
}

interface HarnessRun {
  metrics: { key: string; unit: string; summary?: { mean: number } }[];
  environment: {
    harness: {
      forks: number;
      forkRuns?: { operationTime: number }[];
      warmup: { iterations: number; timeMs: number; steadyState: string };
      measuredCvPercent: number;
    };
    warnings?: string[];
  };
}

/** One run of a workload as the agent runs a job: Harness.run, its forks fresh JVMs, merged. */
function harness(settings: Record<string, unknown>): HarnessFigures {
  const out = path.join(work, `harness-${Date.now()}.json`);
  const started = Date.now();
  const result = spawnSync("java", ["-cp", jar, "dev.versus.harness.RunMain", out], {
    input: JSON.stringify({ workload: "gzip", settings }),
    stdio: ["pipe", "ignore", "pipe"],
    encoding: "utf8",
  });
  const answer = JSON.parse(fs.readFileSync(out, "utf8")) as { run?: HarnessRun; error?: string };
  if (!answer.run) throw new Error(`harness: ${answer.error ?? "no result"}\n${result.stderr}`);
  const time = answer.run.metrics[0]!;
  const perNs: Record<string, number> = { ns: 1, us: 1e3, ms: 1e6, s: 1e9 };
  const alloc = answer.run.metrics.find((m) => m.key === "alloc_per_op")!;
  const { warmup, measuredCvPercent, forkRuns } = answer.run.environment.harness;
  const nsPerOp = time.summary!.mean * perNs[time.unit]!;
  return {
    nsPerOp,
    runSeconds: (Date.now() - started) / 1000,
    forkNsPerOp: forkRuns ? forkRuns.map((fork) => fork.operationTime * perNs[time.unit]!) : [nsPerOp],
    allocPerOp: alloc.summary!.mean,
    warmupIterations: warmup.iterations,
    warmupSeconds: warmup.timeMs / 1000,
    steadyState: warmup.steadyState,
    cvPercent: measuredCvPercent,
    warnings: answer.run.environment.warnings ?? [],
  };
}

interface JmhEntry {
  /** rawData: each fork's measured iterations' scores. */
  primaryMetric: { score: number; scoreUnit: string; rawData: number[][] };
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
  const forkNsPerOp = entry.primaryMetric.rawData.map((fork) => fork.reduce((a, b) => a + b, 0) / fork.length);
  return { nsPerOp: entry.primaryMetric.score, allocPerOp: entry.secondaryMetrics["gc.alloc.rate.norm"]?.score ?? NaN, forkNsPerOp };
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
  /** The 1-minute load average before and after each side's run. */
  load: { harness: [number, number]; jmh: [number, number] };
}

/** A side's figures with the load average before and after its run. */
function loaded<T>(run: () => T): [T, [number, number]] {
  const before = os.loadavg()[0]!;
  const figures = run();
  return [figures, [before, os.loadavg()[0]!]];
}

/** Both sides, the order alternating by round. */
function alternate(round: number, runHarness: () => HarnessFigures, runJmh: () => Figures): Round {
  if (round % 2 === 1) {
    const [h, hLoad] = loaded(runHarness);
    const [j, jLoad] = loaded(runJmh);
    return { first: "harness", harness: h, jmh: j, load: { harness: hLoad, jmh: jLoad } };
  }
  const [j, jLoad] = loaded(runJmh);
  const [h, hLoad] = loaded(runHarness);
  return { first: "JMH", harness: h, jmh: j, load: { harness: hLoad, jmh: jLoad } };
}

const forks = (nsPerOp: number[]) => nsPerOp.map(us).join(" / ");
const spread = (xs: number[]) => {
  if (xs.length < 2) return "—";
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const sd = Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (xs.length - 1));
  return `${((sd / mean) * 100).toFixed(1)}%`;
};
const loads = ([before, after]: [number, number]) => `${before.toFixed(2)}→${after.toFixed(2)}`;

/** A round's figures as soon as it ends, so a run cut short still shows what it measured. */
function progress(what: string, r: Round) {
  const h = r.harness;
  console.log(
    `  ${what}: harness ${us(h.nsPerOp)} µs/op, JMH ${us(r.jmh.nsPerOp)} µs/op, ratio ${(h.nsPerOp / r.jmh.nsPerOp).toFixed(3)}; ` +
      `warm-up ${h.warmupIterations} iterations (${h.warmupSeconds.toFixed(1)} s, ${h.steadyState}), CV ${h.cvPercent.toFixed(1)}%, the harness's run took ${h.runSeconds.toFixed(0)} s\n` +
      `    forks' µs/op: harness ${forks(h.forkNsPerOp)} (spread ${spread(h.forkNsPerOp)}), JMH ${forks(r.jmh.forkNsPerOp)} (spread ${spread(r.jmh.forkNsPerOp)}); ` +
      `load average: harness ${loads(r.load.harness)}, JMH ${loads(r.load.jmh)}`,
  );
}

function report(title: string, rounds: Round[]) {
  console.log(`\n${title}`);
  const rows = [
    [
      "round",
      "first",
      "harness µs/op",
      "JMH µs/op",
      "ratio",
      "warm-up its",
      "warm-up s",
      "steady state",
      "CV %",
      "harness forks",
      "JMH forks",
      "harness B/op",
      "JMH B/op",
      "load h",
      "load JMH",
    ],
  ];
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
      `${r.harness.forkNsPerOp.length} (${spread(r.harness.forkNsPerOp)})`,
      `${r.jmh.forkNsPerOp.length} (${spread(r.jmh.forkNsPerOp)})`,
      r.harness.allocPerOp.toFixed(0),
      r.jmh.allocPerOp.toFixed(0),
      loads(r.load.harness),
      loads(r.load.jmh),
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
    "",
    "",
    median(rounds.map((r) => r.harness.allocPerOp)).toFixed(0),
    median(rounds.map((r) => r.jmh.allocPerOp)).toFixed(0),
    "",
    "",
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
        const fixed = { ...own, forks: 1, steadyState: false, warmupIterations: 5, warmupTime: 1000, iterations: 5, iterationTime: 1000 };
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
    report(`gzip ${sizeBytes} B — each at its defaults (the harness: 3 forks × (1 s iterations, warm-up until steady, 10 measured); ${jmhDefaults})`, defaults);
    if (EQUAL) report(`gzip ${sizeBytes} B — equal settings: 5 + 5 iterations of 1 s, one fork each (the harness with steadyState off)`, equal);
  }
  console.log(
    `\ntarget: median ratio 0.95–1.05 at the defaults. Load average now: ${os.loadavg()[0]!.toFixed(2)} on ${os.availableParallelism()} cores ` +
      `(other processes share them: figures move from round to round). Took ${((Date.now() - started) / 60_000).toFixed(1)} min.`,
  );
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
