// Comparison endpoint benchmark: an experiment with 4 variants × 10 runs × 5 metrics, each run
// holding 1,000,000 samples per metric (so every run carries an HdrHistogram of a million values).
// Times GET /api/v1/experiments/{slug}/comparison next to GET /api/health in the same script, on the
// same production server. Target: comparison ≤ 3 × health + 100 ms (median of 20 sequential GETs).
// Afterwards it breaks the comparison's time down in-process on the same database (query,
// histogram merge, statistics, A/A noise), so a miss shows where the time goes.
// Run: npx tsx bench/comparison.ts   (not part of the test suite; takes a few minutes)
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { latencySamples } from "./lib/samples";
import { startBenchServerWithKey, type BenchServer } from "./lib/server";
import { median, ms, quantile, timeGets } from "./lib/timing";

const NAME = "comparison";
const PORT = 3220; // bench/upload-1m.ts uses 3210 (and 4210 for its PostgreSQL)
const SAMPLES = 1_000_000;
const RUNS = 10;
const N = 20;
const WARM_UP = 3;
const EXPERIMENT = "comparison-bench";
/** Variant → multiplicative shift of its samples (baseline first; "same" has none). */
const VARIANTS = [
  ["baseline", 1],
  ["same", 1],
  ["plus-1pct", 1.01],
  ["minus-2pct", 0.98],
] as const;
/** Metric → scale of the 12 ms log-normal samples, and how a run is summarised. */
const METRICS = [
  { key: "latency_ms", scale: 1, aggregation: "mean" },
  { key: "ttfb_ms", scale: 0.5, aggregation: "median" },
  { key: "connect_ms", scale: 0.1, aggregation: "p90" },
  { key: "server_ms", scale: 2, aggregation: "p99" },
  { key: "queue_ms", scale: 0.25, aggregation: "p95" },
] as const;

const root = path.resolve(import.meta.dirname, "..");
const dataDir = path.join(root, ".data", `bench-${NAME}`);
let server: BenchServer | undefined;
let cleanup: Promise<void> | undefined;

/**
 * Stops the server (which removes its data directory) and makes sure the directory is gone. On
 * Ctrl-C the server got the SIGINT too and may have exited already, when stop() never settles
 * (it waits for an exit event that has passed): give it 30 s, then remove the directory anyway.
 */
function cleanUp(): Promise<void> {
  cleanup ??= (async () => {
    let timer: NodeJS.Timeout | undefined;
    try {
      if (server) await Promise.race([server.stop(), new Promise((resolve) => (timer = setTimeout(resolve, 30_000)))]);
    } finally {
      clearTimeout(timer);
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  })();
  return cleanup;
}
// `on`, not `once`: Ctrl-C reaches this process twice (from the terminal and relayed by tsx).
let interrupted = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    console.error(`\n${signal}: stopping the server`);
    void cleanUp().finally(() => process.exit(130));
  });
}

// tsx SIGKILLs its child when the child does not acknowledge a signal within ~30 ms, which is what
// happens on Ctrl-C while this script is busy generating samples: then no code in this process
// runs. A detached watchdog outlives it: once this process is gone, it stops every process started
// for this data directory (they carry VERSUS_DATA_DIR in their environment), waits for them to
// exit (SIGKILL after 60 s), and removes the directory. After a normal exit it finds nothing to do.
const WATCHDOG = `
const fs = require("node:fs");
const [benchPid, dataDir] = [Number(process.argv[1]), process.argv[2]];
const alive = (pid) => { try { process.kill(pid, 0); return true; } catch (e) { return e.code === "EPERM"; } };
const marker = "VERSUS_DATA_DIR=" + dataDir + "\\0";
const leftovers = () => fs.readdirSync("/proc").filter((p) => /^\\d+$/.test(p) && Number(p) !== process.pid).filter((p) => {
  try { return (fs.readFileSync("/proc/" + p + "/environ", "latin1") + "\\0").includes(marker); } catch { return false; }
}).map(Number);
const signalAll = (signal) => { for (const pid of leftovers()) { try { process.kill(pid, signal); } catch {} } };
const watch = setInterval(() => {
  if (alive(benchPid)) return;
  clearInterval(watch);
  signalAll("SIGTERM");
  const deadline = Date.now() + 60000;
  const wait = setInterval(() => {
    if (leftovers().length && Date.now() < deadline) return;
    clearInterval(wait);
    signalAll("SIGKILL");
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 250);
}, 500);
`;
const { VERSUS_DATA_DIR: _ignored, ...watchdogEnv } = process.env;
spawn(process.execPath, ["-e", WATCHDOG, String(process.pid), dataDir], { detached: true, stdio: "ignore", env: watchdogEnv }).unref();

try {
  const up = await startBenchServerWithKey(NAME, PORT);
  server = up.server;
  const { databaseUrl, auth } = up;

  // ---- upload: one POST per run, 5 metrics × 1,000,000 float64 samples as samplesBase64 (~53 MB)
  const uploadStarted = performance.now();
  let uploadedBytes = 0;
  for (let r = 0; r < RUNS; r++) {
    for (const [v, [variant, shift]] of VARIANTS.entries()) {
      const metrics = METRICS.map((metric, m) => {
        const samples = latencySamples(SAMPLES, 1 + r * 1000 + v * 100 + m);
        const factor = shift * metric.scale;
        if (factor !== 1) for (let i = 0; i < samples.length; i++) samples[i] = Math.round((samples[i] as number) * factor * 1000) / 1000;
        return {
          key: metric.key,
          unit: "ms",
          direction: "lower_is_better",
          aggregation: metric.aggregation,
          samplesBase64: Buffer.from(samples.buffer).toString("base64"),
        };
      });
      const body = JSON.stringify({ experiment: EXPERIMENT, create: true, runs: [{ variant, repetition: r, metrics }] });
      uploadedBytes += Buffer.byteLength(body);
      const response = await fetch(`${server.baseUrl}/api/v1/results`, { method: "POST", headers: { ...auth, "Content-Type": "application/json" }, body });
      if (response.status !== 201) throw new Error(`upload of run ${r} of ${variant} failed: ${response.status} ${(await response.text()).slice(0, 500)}`);
      await response.arrayBuffer();
      const done = r * VARIANTS.length + v + 1;
      const total = RUNS * VARIANTS.length;
      if (done % 8 === 0 || done === total) {
        const seconds = (performance.now() - uploadStarted) / 1000;
        console.log(`  uploaded ${String(done).padStart(2)}/${total} runs (${(uploadedBytes / 1e9).toFixed(2)} GB sent, ${seconds.toFixed(0)} s)`);
      }
    }
  }

  // ---- timing
  const comparisonUrl = `${server.baseUrl}/api/v1/experiments/${EXPERIMENT}/comparison`;
  const check = await fetch(comparisonUrl, { headers: auth });
  const body = (await check.json()) as {
    metrics: {
      key: string;
      comparison: {
        variants: { variant: string; n: number; percentiles: { count: number } | null }[];
        comparisons: { candidate: string; verdict: string }[];
      } | null;
      reason: string | null;
    }[];
  };
  if (check.status !== 200) throw new Error(`comparison failed: ${check.status} ${JSON.stringify(body).slice(0, 500)}`);
  for (const metric of body.metrics) {
    if (!metric.comparison) throw new Error(`${metric.key}: no comparison (${metric.reason})`);
    const counts = metric.comparison.variants.map((v) => `${v.n}×${((v.percentiles?.count ?? 0) / 1e6).toFixed(0)}M`).join(" ");
    console.log(
      `  ${metric.key.padEnd(11)} runs×merged samples ${counts}; ${metric.comparison.comparisons.map((c) => `${c.candidate} ${c.verdict}`).join(", ")}`,
    );
  }

  // Alternating would mix the two; run them back to back, health first, as the target compares them.
  const health = await timeGets(`${server.baseUrl}/api/health`, {}, { count: N, warmUp: WARM_UP });
  const comparison = await timeGets(comparisonUrl, auth, { count: N, warmUp: WARM_UP });

  const target = 3 * median(health.times) + 100;
  const ok = median(comparison.times) <= target;
  console.log(
    `\n${VARIANTS.length} variants × ${RUNS} runs × ${METRICS.length} metrics, ${SAMPLES.toLocaleString("en-US")} samples per run and metric; ${N} sequential GETs each after ${WARM_UP} warm-up`,
  );
  console.log(`  /api/health        median ${ms(median(health.times))}, p90 ${ms(quantile(health.times, 0.9))}  (${health.bytes} B)`);
  console.log(
    `  comparison         median ${ms(median(comparison.times))}, p90 ${ms(quantile(comparison.times, 0.9))}  (${(comparison.bytes / 1024).toFixed(1)} KB)`,
  );
  console.log(`  comparison ≤ 3 × health + 100 ms: ${ms(median(comparison.times))} ≤ ${ms(target)} ${ok ? "✓" : "✗"}`);

  // ---- where the time goes, in-process on the same database (same code the endpoint runs)
  process.env.DATABASE_URL = databaseUrl;
  const { createPrismaClient } = await import("../server/db/client");
  const { getComparison } = await import("../server/comparison/comparison");
  const { mergeHistograms } = await import("../server/stats/histogram");
  const { compareMetric } = await import("../server/stats/compare");
  const { aaNoise, DEFAULT_SPLITS } = await import("../server/stats/noise");
  const db = createPrismaClient(databaseUrl);
  try {
    const timed = async <T>(fn: () => Promise<T> | T): Promise<{ value: T; times: number[] }> => {
      let value = await fn();
      const times: number[] = [];
      for (let i = 0; i < 10; i++) {
        const started = performance.now();
        value = await fn();
        times.push(performance.now() - started);
      }
      return { value, times };
    };
    const experiment = await db.experiment.findFirstOrThrow({
      where: { slug: EXPERIMENT, project: { slug: "bench" } },
      include: { variants: true, metrics: true },
    });
    const total = await timed(() => getComparison(db, { projectSlug: "bench" }, EXPERIMENT));
    const fetchRows = await timed(() =>
      db.runMetricResult.findMany({
        where: { run: { experimentId: experiment.id, status: "succeeded" } },
        orderBy: [{ run: { createdAt: "asc" } }, { runId: "asc" }],
        select: {
          metricId: true,
          mean: true,
          min: true,
          max: true,
          sum: true,
          p50: true,
          p90: true,
          p95: true,
          p99: true,
          histogram: true,
          histogramScale: true,
          run: { select: { id: true, variantId: true } },
        },
      }),
    );
    const rows = fetchRows.value;
    const histogramBytes = rows.reduce((s, r) => s + (r.histogram?.byteLength ?? 0), 0);
    const groups = experiment.metrics.flatMap((m) => experiment.variants.map((v) => rows.filter((r) => r.metricId === m.id && r.run.variantId === v.id)));
    const merge = await timed(() => groups.map((g) => mergeHistograms(g.map((r) => r.histogram as Uint8Array))));
    const statsOnly = await timed(() =>
      experiment.metrics.map((m) =>
        compareMetric(
          { key: m.key, unit: m.unit, direction: m.direction },
          experiment.variants.map((v) => ({
            name: v.name,
            isBaseline: v.isBaseline,
            replicates: rows.filter((r) => r.metricId === m.id && r.run.variantId === v.id).map((r) => r.mean),
          })),
        ),
      ),
    );
    const noise = await timed(() =>
      experiment.metrics.map((m) =>
        aaNoise(
          experiment.variants.map((v) => ({
            name: v.name,
            replicates: rows.filter((r) => r.metricId === m.id && r.run.variantId === v.id).map((r) => r.mean),
          })),
          { alpha: 0.05, seed: 1, splits: DEFAULT_SPLITS },
        ),
      ),
    );
    console.log(`\nin-process breakdown (median of 10 after one warm-up):`);
    console.log(`  getComparison() total                      ${ms(median(total.times))}`);
    console.log(`  RunMetricResult query (${rows.length} rows, ${(histogramBytes / 1024).toFixed(0)} KB of histograms)  ${ms(median(fetchRows.times))}`);
    console.log(`  mergeHistograms, ${groups.length} groups × ${RUNS} histograms  ${ms(median(merge.times))}`);
    console.log(`  compareMetric without histograms, 5 metrics ${ms(median(statsOnly.times))}`);
    console.log(`    of which A/A noise (${DEFAULT_SPLITS} splits × ${VARIANTS.length} variants × 5)  ${ms(median(noise.times))}`);
  } finally {
    await db.$disconnect();
  }
} finally {
  await cleanUp();
}
