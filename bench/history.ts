// History endpoint benchmark: one experiment's metric over 10,000 commits × 10 runs (100,000 runs
// and results), +8% from commit 3,000 and −5% from commit 7,000 amid 2% noise. Times
// GET /api/v1/experiments/{slug}/history (the whole range thinned to 800 points, and a zoomed
// window of 300 commits at full detail) next to GET /api/health in the same script, on the same
// production server. Target: history ≤ 3 × health + 100 ms, for the median of 20 sequential GETs
// after warm-up and for the first (cold) GET of each history, printed as ratios and check marks,
// never asserted. A history read is one stored row (server/history/stored-series.ts: the
// per-commit points the change-point refresh stored) and no cache of the server's holds it, so
// the first read of a history does what every later one does; the route's code is loaded first
// with the history of another, small experiment, so the cold figure is the read and not Next.js
// loading a chunk. Also printed: a read that finds the stored points missing (they are computed from the
// runs — one SQL aggregate over the 100,000 — and stored), and in-process timings of each part.
//
// Setup: the experiment, variant and metric come from one ordinary upload; the other runs are
// the rows an upload writes, inserted with one INSERT … SELECT each (uploading 100,000 runs
// through the API would take most of the benchmark's time and measure ingest, not the history).
// Then the change points are computed once in-process (the same refresh an upload triggers),
// and the time of that full E-Divisive pass over 10,000 commits is printed too.
// Run: npx tsx bench/history.ts   (not part of the test suite; takes a few minutes)
import fs from "node:fs";
import os from "node:os";
import { startBenchServerWithKey, type BenchServer } from "./lib/server";
import { median, ms, quantile, timeGets } from "./lib/timing";

const NAME = "history";
// comparison.ts uses 3220, upload-1m.ts 3210; BENCH_PORT moves it (its PostgreSQL takes the port + 1000).
const PORT = Number(process.env.BENCH_PORT ?? 3230);
const COMMITS = 10_000;
const RUNS_PER_COMMIT = 10;
const N = 20;
const WARM_UP = 3;
const EXPERIMENT = "history-bench";

let server: BenchServer | undefined;
let stopping: Promise<void> | undefined;
const stop = () => (stopping ??= (async () => void (server && (await server.stop())))());
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void stop().finally(() => process.exit(130)));

try {
  const up = await startBenchServerWithKey(NAME, PORT);
  server = up.server;
  const { databaseUrl, auth } = up;

  // The experiment, its variant and metric, through the API.
  const first = await fetch(`${server.baseUrl}/api/v1/results`, {
    method: "POST",
    headers: { ...auth, "Content-Type": "application/json" },
    body: JSON.stringify({
      experiment: EXPERIMENT,
      create: true,
      runs: [{ variant: "main", repetition: 0, metrics: [{ key: "latency_ms", unit: "ms", direction: "lower_is_better", summary: { n: 1, mean: 10 } }] }],
    }),
  });
  if (first.status !== 201) throw new Error(`setup upload failed: ${first.status} ${await first.text()}`);

  process.env.DATABASE_URL = databaseUrl;
  const { createPrismaClient } = await import("../server/db/client");
  const { refreshChangePoints } = await import("../server/history/change-point-store");
  const db = createPrismaClient(databaseUrl);
  try {
    const experiment = await db.experiment.findFirstOrThrow({ where: { slug: EXPERIMENT }, include: { variants: true, metrics: true } });
    const variantId = experiment.variants[0]?.id as string;
    const metricId = experiment.metrics[0]?.id as string;
    const insertStarted = performance.now();
    await db.$transaction(
      async (tx) => {
        await tx.$executeRaw`SELECT setseed(0.42)`;
        // Commit c at 2025-01-01 + c × 1 h; run r a few minutes after. Level: 10 ms, ×1.08 from
        // commit 3,000, ×0.95 more from 7,000; each run ±2% (normal, Box–Muller on random()).
        await tx.$executeRaw`
          INSERT INTO "Run" ("id", "experimentId", "variantId", "status", "source", "repetition", "startedAt", "finishedAt", "gitCommit", "gitBranch", "gitCommitMessage", "gitCommitTime", "tags", "createdAt")
          SELECT 'bench-' || c || '-' || r, ${experiment.id}, ${variantId}, 'succeeded', 'upload', 1 + c * ${RUNS_PER_COMMIT} + r,
            ts + make_interval(mins => 5 + r), ts + make_interval(mins => 6 + r),
            md5('commit ' || c) || substr(md5('c' || c), 1, 8), 'main', 'Change number ' || c, ts, '{}', ts + make_interval(mins => 5 + r)
          FROM generate_series(0, ${COMMITS - 1}) AS c, generate_series(0, ${RUNS_PER_COMMIT - 1}) AS r,
            LATERAL (SELECT timestamp '2025-01-01' + make_interval(hours => c) AS ts) t`;
        await tx.$executeRaw`
          INSERT INTO "RunMetricResult" ("id", "runId", "metricId", "n", "mean", "createdAt")
          SELECT 'bench-result-' || c || '-' || r, 'bench-' || c || '-' || r, ${metricId}, 1000,
            10 * (CASE WHEN c < 3000 THEN 1 WHEN c < 7000 THEN 1.08 ELSE 1.08 * 0.95 END)
               * (1 + 0.02 * sqrt(-2 * ln(1 - random())) * cos(2 * pi() * random())),
            now()
          FROM generate_series(0, ${COMMITS - 1}) AS c, generate_series(0, ${RUNS_PER_COMMIT - 1}) AS r`;
      },
      { timeout: 600_000 },
    );
    await db.$executeRaw`ANALYZE "Run"`;
    await db.$executeRaw`ANALYZE "RunMetricResult"`;
    console.log(
      `inserted ${COMMITS.toLocaleString("en-US")} commits × ${RUNS_PER_COMMIT} runs in ${((performance.now() - insertStarted) / 1000).toFixed(1)} s`,
    );

    const refreshStarted = performance.now();
    const found = await refreshChangePoints(db, experiment.id);
    const refreshMs = performance.now() - refreshStarted;
    const main = found.filter((c) => c.branch === "");
    console.log(`change points (all branches): ${main.map((c) => `${c.changePercent?.toFixed(1)}% ${c.verdict}`).join(", ")}; full refresh ${ms(refreshMs)}`);
    const again = performance.now();
    await refreshChangePoints(db, experiment.id);
    console.log(`refresh with nothing new (series read, digest unchanged): ${ms(performance.now() - again)}`);

    const base = `${server.baseUrl}/api/v1/experiments/${EXPERIMENT}/history?metric=latency_ms&variant=main`;
    // Load the history route's code with the history of another, small experiment: the first GET
    // of the big one is then cold in what it reads, not in Next.js loading a chunk.
    const small = await fetch(`${server.baseUrl}/api/v1/results`, {
      method: "POST",
      headers: { ...auth, "Content-Type": "application/json" },
      body: JSON.stringify({
        experiment: `${EXPERIMENT}-warm-up`,
        create: true,
        runs: [0, 1, 2].map((c) => ({
          variant: "main",
          gitCommit: `warm${c}aaaa`,
          gitBranch: "main",
          metrics: [{ key: "latency_ms", unit: "ms", direction: "lower_is_better", summary: { n: 1, mean: 10 + c } }],
        })),
      }),
    });
    if (small.status !== 201) throw new Error(`warm-up upload failed: ${small.status} ${await small.text()}`);
    for (let i = 0; i < WARM_UP; i++) {
      const warm = await fetch(`${server.baseUrl}/api/v1/experiments/${EXPERIMENT}-warm-up/history?metric=latency_ms&variant=main`, { headers: auth });
      if (warm.status !== 200) throw new Error(`route warm-up: ${warm.status} ${await warm.text()}`);
    }
    // Health first, then the history, back to back, as the target compares them.
    const health = await timeGets(`${server.baseUrl}/api/health`, {}, { count: N, warmUp: WARM_UP });
    const whole = await timeGets(base, auth, { count: N, warmUp: WARM_UP });
    const check = (await (await fetch(base, { headers: auth })).json()) as {
      commits: number;
      points: unknown[];
      changePoints: unknown[];
      downsampled: boolean;
    };
    console.log(
      `history: ${check.commits} commits, ${check.points.length} points returned (downsampled: ${check.downsampled}), ${check.changePoints.length} change points`,
    );
    const zoom = await timeGets(`${base}&branch=main&from=2025-06-01T00:00:00Z&to=2025-06-13T11:00:00Z`, auth, { count: N, warmUp: WARM_UP });

    const target = 3 * median(health.times) + 100;
    console.log(
      `\n${COMMITS.toLocaleString("en-US")} commits × ${RUNS_PER_COMMIT} runs; ${N} sequential GETs each after ${WARM_UP} warm-up (load average ${os.loadavg()[0]?.toFixed(1)} on ${os.cpus().length} cores)`,
    );
    console.log(`  /api/health                 median ${ms(median(health.times))}, p90 ${ms(quantile(health.times, 0.9))}  (${health.bytes} B)`);
    for (const [label, t] of [
      ["history, whole range (800 pts)", whole],
      ["history, 300-commit window", zoom],
    ] as const) {
      const m = median(t.times);
      console.log(
        `  ${label.padEnd(27)} median ${ms(m)}, p90 ${ms(quantile(t.times, 0.9))}  (${(t.bytes / 1024).toFixed(1)} KB); first (cold) GET ${ms(t.first)}`,
      );
      console.log(`    ≤ 3 × health + 100 ms: median ${ms(m)} vs ${ms(target)} = ${(m / target).toFixed(2)} of the budget ${m <= target ? "✓" : "✗"}`);
      console.log(
        `                           cold   ${ms(t.first)} vs ${ms(target)} = ${(t.first / target).toFixed(2)} of the budget ${t.first <= target ? "✓" : "✗"}`,
      );
    }

    // A read that finds no stored points (as before the first refresh of a history stored by an
    // older version): computed from the runs and stored; the next read is a stored one again.
    await db.historySeries.deleteMany({ where: { variantId } });
    const missingStarted = performance.now();
    const missing = await fetch(base, { headers: auth });
    const missingMs = performance.now() - missingStarted;
    await missing.text();
    const againStarted = performance.now();
    await (await fetch(base, { headers: auth })).text();
    console.log(`  stored points missing: the read computes and stores them in ${ms(missingMs)}; the next read ${ms(performance.now() - againStarted)}`);

    // ---- where a read's time goes, in-process on the same database (the code the endpoint runs)
    const { commitSeriesOf, seriesBranches } = await import("../server/history/commit-series");
    const { readStoredSeries, computeSeries } = await import("../server/history/stored-series");
    const subject = {
      metric: experiment.metrics[0] as (typeof experiment.metrics)[number],
      variant: experiment.variants[0] as (typeof experiment.variants)[number],
    };
    const timed = async (fn: () => Promise<unknown>) => {
      await fn();
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        const started = performance.now();
        await fn();
        times.push(performance.now() - started);
      }
      return median(times);
    };
    console.log(`\nin-process (median of 5 after one warm-up):`);
    console.log(`  readStoredSeries (the stored row, checked current)  ${ms(await timed(() => readStoredSeries(db, subject, null)))}`);
    console.log(`    without the run values (as the page reads it)     ${ms(await timed(() => readStoredSeries(db, subject, null, { runValues: false })))}`);
    console.log(`  computeSeries (from the runs, one snapshot)          ${ms(await timed(() => computeSeries(db, subject, null)))}`);
    console.log(`    commitSeriesOf (SQL aggregate + medians' CIs)      ${ms(await timed(() => commitSeriesOf(db, subject, null)))}`);
    console.log(`    seriesBranches                                     ${ms(await timed(() => seriesBranches(db, subject.variant.id)))}`);
  } finally {
    await db.$disconnect();
  }
} finally {
  await stop();
  fs.rmSync(`.data/bench-${NAME}`, { recursive: true, force: true });
}
