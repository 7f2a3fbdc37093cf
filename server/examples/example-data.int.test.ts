// Example data is loaded once per installation: the first start creates the "examples" project
// with the five write-ups of docs/examples.md (six experiments: the cache write-up has two) and two
// runnable experiments without runs (gzip for the local agent, the serializer for a JVM agent), later
// starts leave it alone, and a user who deleted it keeps it deleted. The runs go through the
// ingest service, and the stored summaries are the published figures.
// The marker row in InstanceSetting is global and the database is shared with other test files,
// so every test starts by clearing the marker and any example project left behind.
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import { createPrismaClient, type Db } from "../db/client";
import { insertsRuns, withPoolInFront } from "~/test/pool-in-front";
import { drainBackgroundWork } from "~/server/background/worker";
import { getComparison } from "../comparison/comparison";
import { ZResultsUpload } from "../schemas/results";
import { EXAMPLE_PROJECT_SLUG, loadExampleDataOnce } from "./example-data";
import { getExperiment, listExperiments } from "../experiments/experiments";
import { buildMarkdownReport } from "../reports/report";
import { ingestResults } from "../runs/ingest-results";

const MARKER = "exampleDataLoaded";
const S3 = "s3-upload-plain-vs-gzip";
const HTTP = "http-vs-grpc-1mb";
const CPU = "upload-cpu-sdk-jce-provider";
const PRODUCT = "product-list-redis-cache";
const COUPON = "coupon-api-scale-out";
const KAFKA = "kafka-producer-serializers";
const RUNNABLE = "gzip-payloads-runnable";
const HTTP_RUNNABLE = "http-keepalive-runnable";
const JVM_RUNNABLE = "serializer-objectmapper-runnable";
const GRPC_RUNNABLE = "http-vs-grpc-1mb-runnable";
const CACHE_RUNNABLE = "cache-scale-out-runnable";
const S3_MAIL_RUNNABLE = "s3-upload-mail-runnable";
const S3_SMS_RUNNABLE = "s3-upload-sms-runnable";
const CPU_RUNNABLE = "upload-cpu-provider-runnable";
const KAFKA_RUNNABLE = "kafka-serializers-runnable";
const HISTORY = "gzip-history";
const ALL = [
  RUNNABLE,
  HTTP_RUNNABLE,
  JVM_RUNNABLE,
  S3_MAIL_RUNNABLE,
  S3_SMS_RUNNABLE,
  CPU_RUNNABLE,
  S3,
  GRPC_RUNNABLE,
  HTTP,
  CPU,
  CACHE_RUNNABLE,
  PRODUCT,
  COUPON,
  KAFKA_RUNNABLE,
  KAFKA,
  HISTORY,
];
const RUNS: Record<string, number> = {
  [RUNNABLE]: 0,
  [HTTP_RUNNABLE]: 0,
  [JVM_RUNNABLE]: 0,
  [GRPC_RUNNABLE]: 0,
  [CACHE_RUNNABLE]: 0,
  [S3_MAIL_RUNNABLE]: 0,
  [S3_SMS_RUNNABLE]: 0,
  [CPU_RUNNABLE]: 0,
  [KAFKA_RUNNABLE]: 0,
  [S3]: 2,
  [HTTP]: 4,
  [CPU]: 15,
  [PRODUCT]: 2,
  [COUPON]: 2,
  [KAFKA]: 15,
  [HISTORY]: 900,
};

const db = createPrismaClient(inject("databaseUrl"));

afterAll(async () => {
  await drainBackgroundWork(db);
  await db.$disconnect();
});

/** As on a brand-new installation: no marker, no example project. */
async function resetToFreshInstallation() {
  // The change-point refresh an earlier load started works on the rows deleted here.
  await drainBackgroundWork(db);
  await db.instanceSetting.deleteMany({ where: { key: MARKER } });
  await db.project.deleteMany({ where: { slug: EXAMPLE_PROJECT_SLUG } });
}

function findExampleProject() {
  return db.project.findUnique({
    where: { slug: EXAMPLE_PROJECT_SLUG },
    include: {
      experiments: {
        orderBy: { slug: "asc" },
        include: { variants: { orderBy: { position: "asc" } }, metrics: { orderBy: { position: "asc" } }, _count: { select: { runs: true } } },
      },
    },
  });
}

async function runCounts(): Promise<Record<string, number>> {
  const project = await findExampleProject();
  return Object.fromEntries((project?.experiments ?? []).map((e) => [e.slug, e._count.runs]));
}

/** `db`, except that transactions fail from the `failFrom`-th on — as if the database went away mid-load. */
function withFailingTransactions(real: Db, failFrom = 1): Db {
  let calls = 0;
  const failed = () => (calls += 1) >= failFrom;
  const lost = () => Promise.reject(new Error("connection lost"));
  // Uploads run their transaction on the pool under the client (server/db/sql-transaction.ts):
  // a connection taken from it for one is a transaction too, and so is the one statement that
  // stores an upload's runs when its experiment has everything (store-runs.ts, storeUploadRuns).
  return withPoolInFront(
    real,
    (pool) => ({
      query: (config, ...rest) => (insertsRuns(config) && failed() ? lost() : (pool.query as (...a: unknown[]) => unknown)(config, ...rest)),
      connect: () => (failed() ? lost() : pool.connect()),
    }),
    (client, property) =>
      property === "$transaction" ? (...args: unknown[]) => (failed() ? lost() : (client.$transaction as (...a: unknown[]) => unknown)(...args)) : undefined,
  );
}

describe("loadExampleDataOnce", () => {
  beforeEach(resetToFreshInstallation);

  it('loads the examples on the first call, then answers "already-loaded"', async () => {
    expect(await loadExampleDataOnce(db)).toBe("loaded");
    expect(await loadExampleDataOnce(db)).toBe("already-loaded");

    const project = await findExampleProject();
    expect(project).toMatchObject({ slug: "examples", name: "Examples" });
    expect(project!.description).toContain("Delete this project any time");
    expect(project!.experiments.map((e) => e.slug).sort()).toEqual([...ALL].sort());
    for (const experiment of project!.experiments)
      expect(experiment).toMatchObject({
        isExample: true,
        status: [
          RUNNABLE,
          HTTP_RUNNABLE,
          JVM_RUNNABLE,
          GRPC_RUNNABLE,
          CACHE_RUNNABLE,
          S3_MAIL_RUNNABLE,
          S3_SMS_RUNNABLE,
          CPU_RUNNABLE,
          KAFKA_RUNNABLE,
          HISTORY,
        ].includes(experiment.slug)
          ? "active"
          : "completed",
      });
    expect(await runCounts()).toEqual(RUNS);

    const s3 = project!.experiments.find((e) => e.slug === S3)!;
    expect(s3).toMatchObject({ title: "S3 upload: plain vs gzip" });
    expect(s3.variants.map((v) => [v.name, v.isBaseline])).toEqual([
      ["Plain", true],
      ["Gzip", false],
    ]);
    expect(s3.metrics.map((m) => [m.key, m.unit, m.direction])).toEqual([
      ["upload_latency_ms_email", "ms", "lower_is_better"],
      ["upload_latency_ms_sms", "ms", "lower_is_better"],
      ["payload_bytes_email", "B", "lower_is_better"],
      ["payload_bytes_sms", "B", "lower_is_better"],
    ]);
    const baselines = Object.fromEntries(project!.experiments.map((e) => [e.slug, e.variants.find((v) => v.isBaseline)?.name]));
    expect(baselines).toEqual({
      [RUNNABLE]: "Plain",
      [HTTP_RUNNABLE]: "Keep-alive",
      [GRPC_RUNNABLE]: "gRPC/Unary",
      [CACHE_RUNNABLE]: "No cache",
      [S3_MAIL_RUNNABLE]: "Plain",
      [S3_SMS_RUNNABLE]: "Plain",
      [CPU_RUNNABLE]: "SunJCE",
      [KAFKA_RUNNABLE]: "SPRING_JSON",
      [JVM_RUNNABLE]: "Shared ObjectMapper",
      [S3]: "Plain",
      [HTTP]: "gRPC/Unary",
      [CPU]: "Template",
      [PRODUCT]: "No cache",
      [COUPON]: "One server",
      [KAFKA]: "SPRING_JSON",
      [HISTORY]: "gzip",
    });
    expect(await db.instanceSetting.findUnique({ where: { key: MARKER } })).not.toBeNull();

    // The runnable one has no runs yet, and a workload for each variant that an agent runs.
    const runnable = project!.experiments.find((e) => e.slug === RUNNABLE)!;
    expect(runnable.variants.map((v) => v.config)).toMatchObject([
      { workload: "gzip", settings: { compress: false, sizeBytes: 51_200 } },
      { workload: "gzip", settings: { compress: true, level: 6, sizeBytes: 51_200 } },
    ]);
    expect(runnable).toMatchObject({ warmupRuns: 1, measuredRuns: 5 });
    const jvm = project!.experiments.find((e) => e.slug === JVM_RUNNABLE)!;
    expect(jvm.variants.map((v) => v.config)).toMatchObject([
      { workload: "json", settings: { mapper: "shared" } },
      { workload: "json", settings: { mapper: "new-per-call" } },
    ]);
  });

  it("does not bring the examples back after the user deleted them", async () => {
    expect(await loadExampleDataOnce(db)).toBe("loaded");
    await db.project.delete({ where: { slug: EXAMPLE_PROJECT_SLUG } });

    expect(await loadExampleDataOnce(db)).toBe("already-loaded");

    expect(await findExampleProject()).toBeNull();
  });

  it("loads once when two processes start together", async () => {
    const outcomes = await Promise.all([loadExampleDataOnce(db), loadExampleDataOnce(db)]);

    expect(outcomes.sort()).toEqual(["already-loaded", "loaded"]);
    expect(await runCounts()).toEqual(RUNS);
  });

  it("forgets the marker when loading fails, so the next start tries again", async () => {
    await expect(loadExampleDataOnce(withFailingTransactions(db))).rejects.toThrow("connection lost");
    expect(await db.instanceSetting.findUnique({ where: { key: MARKER } })).toBeNull();

    // The project got as far as being created; the retry reuses it rather than failing on its slug.
    expect(await loadExampleDataOnce(db)).toBe("loaded");

    const project = await findExampleProject();
    expect(project!.experiments.map((e) => [e.slug, e.isExample])).toEqual([...ALL].sort().map((slug) => [slug, true]));
    expect(await runCounts()).toEqual(RUNS);
  });

  it("resumes a load that failed part-way without storing any run twice", async () => {
    // Each experiment takes two transactions (create, then ingest): fail the 6th, an ingest, so
    // two experiments are complete and a third exists without its runs.
    await expect(loadExampleDataOnce(withFailingTransactions(db, 6))).rejects.toThrow("connection lost");
    expect(await db.instanceSetting.findUnique({ where: { key: MARKER } })).toBeNull();
    const partial = await runCounts();
    expect(Object.keys(partial)).toHaveLength(3);
    expect(Object.values(partial).filter((n) => n === 0)).toHaveLength(1);

    expect(await loadExampleDataOnce(db)).toBe("loaded");

    expect(await runCounts()).toEqual(RUNS);
  });

  it("leaves example rows that already exist alone when the marker was lost", async () => {
    expect(await loadExampleDataOnce(db)).toBe("loaded");
    const before = await findExampleProject();
    await db.instanceSetting.delete({ where: { key: MARKER } });

    expect(await loadExampleDataOnce(db)).toBe("loaded");

    expect(await findExampleProject()).toEqual(before);
  });
});

interface StoredRow {
  variant: string;
  repetition: number;
  key: string;
  n: number;
  mean: number;
  sd: number | null;
  min: number | null;
  max: number | null;
  p50: number | null;
  p95: number | null;
  p99: number | null;
  sum: number | null;
  value: number | null;
  hasSamples: boolean;
}

/** The stored summary of every run and metric of one example experiment, in run order. */
async function stored(slug: string): Promise<StoredRow[]> {
  const rows = await db.runMetricResult.findMany({
    where: { run: { experiment: { slug, project: { slug: EXAMPLE_PROJECT_SLUG } } } },
    orderBy: [{ run: { repetition: "asc" } }, { run: { createdAt: "asc" } }, { runId: "asc" }],
    include: { metric: true, run: { include: { variant: true } } },
  });
  return rows.map((r) => ({
    variant: r.run.variant.name,
    repetition: r.run.repetition,
    key: r.metric.key,
    n: Number(r.n),
    mean: r.mean,
    sd: r.sd,
    min: r.min,
    max: r.max,
    p50: r.p50,
    p95: r.p95,
    p99: r.p99,
    sum: r.sum,
    value: r.value,
    hasSamples: r.samples !== null,
  }));
}

function only(rows: StoredRow[], variant: string, key: string): StoredRow {
  const found = rows.filter((r) => r.variant === variant && r.key === key);
  expect(found).toHaveLength(1);
  return found[0]!;
}

async function seriesOf(slug: string, variant: string, key: string): Promise<number[][]> {
  const series = await db.runTimeSeries.findMany({
    where: { metric: { key }, run: { variant: { name: variant }, experiment: { slug, project: { slug: EXAMPLE_PROJECT_SLUG } } } },
    orderBy: { run: { repetition: "asc" } },
  });
  return series.map((s) => s.values);
}

const average = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

async function verdicts(slug: string, key: string) {
  const comparison = await getComparison(db, { projectSlug: EXAMPLE_PROJECT_SLUG }, slug);
  const metric = comparison.metrics.find((m) => m.key === key);
  return Object.fromEntries((metric?.comparison?.comparisons ?? []).map((c) => [c.candidate, { verdict: c.verdict, evidence: c.evidence }]));
}

describe("the example runs", () => {
  beforeAll(async () => {
    await resetToFreshInstallation();
    await loadExampleDataOnce(db);
  });

  it("are stored by the ingest service as example runs, tagged, saying where their numbers came from", async () => {
    const runs = await db.run.findMany({ where: { experiment: { project: { slug: EXAMPLE_PROJECT_SLUG } } } });
    // 40 runs of the write-ups, 900 of the history (300 commits × 3).
    expect(runs).toHaveLength(940);
    for (const run of runs) {
      expect(run).toMatchObject({ source: "example", status: "succeeded" });
      expect(run.tags).toEqual(["example data"]);
      expect(run.sourceDetail).toMatch(/^(synthetic samples from a published summary|published summary|synthetic history)/);
    }
  });

  it("History: the change points of its two shifts are stored after the load, +8% a regression and −5% an improvement", async () => {
    await drainBackgroundWork(db);
    const found = await db.changePoint.findMany({
      where: { experiment: { slug: HISTORY, project: { slug: EXAMPLE_PROJECT_SLUG } }, branch: "main", metric: { key: "compress_time" } },
      orderBy: { commitIndex: "asc" },
    });
    expect(found.map((c) => [c.verdict, c.status])).toEqual([
      ["regression", "open"],
      ["improvement", "open"],
    ]);
    expect(Math.abs((found[0]?.commitIndex as number) - 120)).toBeLessThanOrEqual(2);
    expect(Math.abs((found[1]?.commitIndex as number) - 220)).toBeLessThanOrEqual(2);
    expect(found[0]?.changePercent).toBeGreaterThan(5);
    expect(found[1]?.changePercent).toBeLessThan(-2);
    const atShift = await db.run.findFirst({ where: { gitCommit: found[0]?.commit }, select: { gitCommitMessage: true } });
    expect(atShift?.gitCommitMessage).toBe("Raise gzip level from 6 to 9 for smaller artifacts");
  });

  it("S3: one run per variant of 100 uploads whose mean latency is the published one", async () => {
    const rows = await stored(S3);
    const published = { Plain: { email: 114.11, sms: 116.23 }, Gzip: { email: 118.091, sms: 115.569 } };
    for (const [variant, means] of Object.entries(published)) {
      for (const [payload, mean] of Object.entries(means)) {
        const row = only(rows, variant, `upload_latency_ms_${payload}`);
        expect(row.n).toBe(100);
        expect(row.mean.toFixed(3)).toBe(mean.toFixed(3));
        expect(row.hasSamples).toBe(true);
        expect(row.min).toBeGreaterThan(0);
      }
    }
    expect([only(rows, "Plain", "payload_bytes_email").mean, only(rows, "Gzip", "payload_bytes_email").mean]).toEqual([51_200, 2_048]);
    expect([only(rows, "Plain", "payload_bytes_sms").mean, only(rows, "Gzip", "payload_bytes_sms").mean]).toEqual([87, 100]);
    const run = await db.run.findFirstOrThrow({ where: { experiment: { slug: S3 }, variant: { name: "Plain" } } });
    expect(run.sourceDetail).toContain("synthetic samples from a published summary");
    expect(run.environment).toMatchObject({ region: "ap-northeast-2", containerLimits: "1 vCPU / 2 GB" });
  });

  it("S3: the latency verdicts are weak evidence of no change; the size changes show", async () => {
    expect(await verdicts(S3, "upload_latency_ms_email")).toEqual({ Gzip: { verdict: "no_change", evidence: "weak" } });
    expect(await verdicts(S3, "upload_latency_ms_sms")).toEqual({ Gzip: { verdict: "no_change", evidence: "weak" } });
    expect(await verdicts(S3, "payload_bytes_email")).toEqual({ Gzip: { verdict: "better", evidence: "weak" } });
    expect(await verdicts(S3, "payload_bytes_sms")).toEqual({ Gzip: { verdict: "worse", evidence: "weak" } });
  });

  it("HTTP vs gRPC: the published summaries, and a throughput series adding up to the requests", async () => {
    const rows = await stored(HTTP);
    // The published rate is the run's value; the summary describes the 31 per-second counts.
    const binaryThroughput = only(rows, "HTTP/Binary", "throughput_rps");
    expect(binaryThroughput).toMatchObject({ value: 2506.24, n: 31, sum: 77_711 });
    expect(binaryThroughput.mean).toBeCloseTo(77_711 / 31, 9);
    expect(only(rows, "HTTP/Binary", "latency_ms")).toMatchObject({ n: 77_711, mean: 2.7, p50: 2, p95: 4, p99: 6 });
    expect(only(rows, "gRPC/Unary", "latency_ms")).toMatchObject({ n: 36_806, mean: 6.87, p50: 6, p95: 11.23, p99: 15 });
    expect(only(rows, "HTTP/JSON", "throughput_rps").value).toBe(514.54);
    const comparison = await getComparison(db, { projectSlug: EXAMPLE_PROJECT_SLUG }, HTTP);
    const medians = comparison.metrics.find((m) => m.key === "throughput_rps")?.comparison?.variants.map((v) => [v.variant, v.median]);
    expect(medians).toEqual([
      ["gRPC/Unary", 1186.64],
      ["HTTP/Binary", 2506.24],
      ["HTTP/JSON", 514.54],
      ["gRPC/Stream", 210.72],
    ]);
    expect(only(rows, "gRPC/Stream", "latency_ms")).toMatchObject({ mean: 44.53, p99: 85 });
    expect((only(rows, "HTTP/Binary", "data_transferred_bytes").sum! / 1e9).toFixed(1)).toBe("81.5");
    expect((only(rows, "gRPC/Stream", "data_transferred_bytes").sum! / 1e9).toFixed(1)).toBe("6.9");
    expect([only(rows, "HTTP/Binary", "heap_peak_mb").max, only(rows, "HTTP/Binary", "gc_count").sum, only(rows, "HTTP/Binary", "gc_time_ms").sum]).toEqual([
      794.71, 134, 278,
    ]);
    expect(rows.filter((r) => r.key === "heap_peak_mb")).toHaveLength(1);

    for (const [variant, requests] of [
      ["HTTP/Binary", 77_711],
      ["gRPC/Unary", 36_806],
      ["HTTP/JSON", 15_964],
      ["gRPC/Stream", 6_540],
    ] as const) {
      const [series] = await seriesOf(HTTP, variant, "throughput_rps");
      expect(series).toHaveLength(31);
      expect(series!.reduce((a, b) => a + b, 0)).toBe(requests);
    }
    // One load test per protocol: no verdict without replicates.
    expect(await verdicts(HTTP, "throughput_rps")).toEqual({
      "HTTP/Binary": { verdict: "insufficient_data", evidence: null },
      "HTTP/JSON": { verdict: "insufficient_data", evidence: null },
      "gRPC/Stream": { verdict: "insufficient_data", evidence: null },
    });
  });

  it("Upload CPU: five runs per variant inside the published ranges, with CPU series", async () => {
    const rows = await stored(CPU);
    const of = (variant: string, key: string) => rows.filter((r) => r.variant === variant && r.key === key);
    const times = (variant: string) => of(variant, "upload_time_s").map((r) => r.mean);
    expect(times("Template")).toHaveLength(5);
    expect(times("Template").every((t) => t >= 4 && t <= 6)).toBe(true);
    expect(average(times("Template")).toFixed(2)).toBe("5.00");
    for (const variant of ["SDK", "SDK + provider"]) expect(average(times(variant)).toFixed(2)).toBe("2.00");

    const cpuAverages = (variant: string) => of(variant, "cpu_percent_avg").map((r) => r.mean);
    expect(average(cpuAverages("Template")).toFixed(1)).toBe("50.0");
    expect(average(cpuAverages("SDK")).toFixed(1)).toBe("50.0");
    expect(average(cpuAverages("SDK + provider")).toFixed(1)).toBe("20.0");
    expect(Math.max(...of("Template", "cpu_percent_max").map((r) => r.mean))).toBe(80);
    expect(Math.max(...of("SDK + provider", "cpu_percent_max").map((r) => r.mean))).toBe(30);

    const series = await seriesOf(CPU, "SDK + provider", "cpu_percent_avg");
    expect(series).toHaveLength(5);
    for (const values of series) expect(values.every((v) => v > 10 && v <= 30)).toBe(true);
    // The run's stored average and peak are its series' mean and highest point.
    const [first] = of("Template", "cpu_percent_avg");
    const [firstSeries] = await seriesOf(CPU, "Template", "cpu_percent_avg");
    expect(first!.mean).toBeCloseTo(average(firstSeries!), 9);
    expect(first!.max).toBe(Math.max(...firstSeries!));

    expect(await verdicts(CPU, "upload_time_s")).toEqual({
      SDK: { verdict: "better", evidence: "strong" },
      "SDK + provider": { verdict: "better", evidence: "strong" },
    });
    expect(await verdicts(CPU, "cpu_percent_avg")).toEqual({
      SDK: { verdict: "no_change", evidence: "strong" },
      "SDK + provider": { verdict: "better", evidence: "strong" },
    });
  });

  it("Cache and scale-out: TPS series with the published average, peak and range", async () => {
    const product = await stored(PRODUCT);
    expect(only(product, "No cache", "tps")).toMatchObject({ n: 300, max: 921 });
    expect(only(product, "No cache", "tps").mean).toBeCloseTo(662, 9);
    expect(only(product, "Redis cache", "tps")).toMatchObject({ n: 300, max: 1547 });
    expect(only(product, "Redis cache", "tps").mean).toBeCloseTo(1124, 9);
    expect([only(product, "No cache", "peak_tps").mean, only(product, "Redis cache", "peak_tps").mean]).toEqual([921, 1547]);
    expect([only(product, "No cache", "errors").sum, only(product, "Redis cache", "errors").sum]).toEqual([2674, 0]);
    expect(only(product, "Redis cache", "cpu_percent")).toMatchObject({ mean: 100, max: 100 });
    const [tpsSeries] = await seriesOf(PRODUCT, "No cache", "tps");
    expect(tpsSeries).toHaveLength(300);
    expect(average(tpsSeries!)).toBeCloseTo(662, 9);

    const coupon = await stored(COUPON);
    expect(only(coupon, "One server", "tps")).toMatchObject({ min: 400, max: 538 });
    expect(only(coupon, "Two servers + nginx", "tps")).toMatchObject({ min: 450, max: 667 });
    expect(only(coupon, "Two servers + nginx", "cpu_percent").mean / only(coupon, "One server", "cpu_percent").mean).toBeCloseTo(0.5, 9);

    expect(await verdicts(PRODUCT, "tps")).toEqual({ "Redis cache": { verdict: "better", evidence: "weak" } });
    expect(await verdicts(COUPON, "tps")).toEqual({ "Two servers + nginx": { verdict: "better", evidence: "weak" } });
    expect(await verdicts(COUPON, "cpu_percent")).toEqual({ "Two servers + nginx": { verdict: "better", evidence: "weak" } });
  });

  it("Kafka: the published per-run send times and message sizes", async () => {
    const rows = await stored(KAFKA);
    const perRun = (variant: string, key: string) => rows.filter((r) => r.variant === variant && r.key === key);
    expect(perRun("SPRING_JSON", "send_time_ms").map((r) => r.mean)).toEqual([3.436, 3.03, 2.956, 2.947, 3.019]);
    expect(perRun("JACKSON_OBJECT_MAPPER", "send_time_ms").map((r) => r.mean)).toEqual([3.202, 2.795, 2.888, 2.919, 2.993]);
    expect(perRun("KOTLINX_JSON", "send_time_ms").map((r) => r.mean)).toEqual([2.95, 2.914, 2.833, 2.887, 2.865]);
    for (const row of rows) expect(row.n).toBe(1_000_000);

    for (const row of perRun("SPRING_JSON", "message_size_bytes")) expect(row).toMatchObject({ sum: 181_347_890 });
    expect(perRun("SPRING_JSON", "message_size_bytes")[0]!.mean.toFixed(2)).toBe("181.35");
    for (const variant of ["JACKSON_OBJECT_MAPPER", "KOTLINX_JSON"]) {
      const sizes = perRun(variant, "message_size_bytes").map((r) => r.mean);
      expect(average(sizes).toFixed(2)).toBe("190.34");
      const populationSd = Math.sqrt(average(sizes.map((s) => (s - average(sizes)) ** 2)));
      expect(populationSd.toFixed(4)).toBe("0.0040");
    }
  });

  it("Kafka: KOTLINX_JSON is faster than SPRING_JSON; JACKSON_OBJECT_MAPPER is not significantly different", async () => {
    expect(await verdicts(KAFKA, "send_time_ms")).toEqual({
      JACKSON_OBJECT_MAPPER: { verdict: "no_change", evidence: "strong" },
      KOTLINX_JSON: { verdict: "better", evidence: "strong" },
    });
    const comparison = await getComparison(db, { projectSlug: EXAMPLE_PROJECT_SLUG }, KAFKA);
    const sendTime = comparison.metrics.find((m) => m.key === "send_time_ms")!.comparison!;
    // Versus shows the sample sd (n − 1) and the population sd the write-up printed.
    const sds = Object.fromEntries(sendTime.variants.map((v) => [v.variant, [v.sd!.toFixed(3), v.populationSd!.toFixed(3)]]));
    expect(sds).toEqual({ SPRING_JSON: ["0.204", "0.182"], JACKSON_OBJECT_MAPPER: ["0.153", "0.137"], KOTLINX_JSON: ["0.045", "0.040"] });
  });
});

describe("what an example is called after the user's own runs", () => {
  beforeAll(async () => {
    await resetToFreshInstallation();
    await loadExampleDataOnce(db);
  });

  /** Stores a run of the user's own (an upload, as an agent's complete or `versus upload` would). */
  async function ownRun(experiment: string, variant: string, metric: string, unit: string) {
    const project = await db.project.findUniqueOrThrow({ where: { slug: EXAMPLE_PROJECT_SLUG } });
    await ingestResults(
      db,
      ZResultsUpload.parse({ experiment, runs: [{ variant, metrics: [{ key: metric, unit, direction: "lower_is_better", samples: [10, 11, 12] }] }] }),
      {
        projectId: project.id,
        projectSlug: project.slug,
        source: "upload",
        bodySha256: `own-${experiment}-${variant}`,
        baseUrl: "",
      },
    );
  }
  const report = (experiment: string) =>
    buildMarkdownReport(db, { projectSlug: EXAMPLE_PROJECT_SLUG }, experiment, undefined, { chartFiles: [], generatedAt: new Date(0) });
  const banner = async (experiment: string) => (await report(experiment)).split("\n").filter((line) => line.startsWith("> "));

  it("the runnable gzip example: 'Runnable example, no runs yet' before, no banner and no 'Press Run … no results yet' after a run of the user's", async () => {
    expect(await banner(RUNNABLE)).toEqual([
      "> **Runnable example, no runs yet.** Versus created this experiment to be run on your machines: press Run and the project's agents measure it.",
    ]);
    await ownRun(RUNNABLE, "Plain", "compress_time", "us");
    const text = await report(RUNNABLE);
    expect(text).not.toMatch(/Example data|example data|Press Run|no results yet|no runs yet/i);
    const { experiment } = await getExperiment(db, EXAMPLE_PROJECT_SLUG, RUNNABLE);
    expect(experiment.runOrigins).toEqual({ example: 0, own: 1 });
    expect((await listExperiments(db, EXAMPLE_PROJECT_SLUG)).experiments.find((e) => e.slug === RUNNABLE)?.runOrigins).toEqual({ example: 0, own: 1 });
  });

  it("a write-up: 'example data' until the user adds a run, then says which runs are whose", async () => {
    expect(await banner(S3)).toEqual([expect.stringMatching(/^> \*\*Example data\.\*\* /)]);
    await ownRun(S3, "Plain", "upload_latency_ms_email", "ms");
    expect(await banner(S3)).toEqual([
      "> **Example data and your own runs.** 2 runs shipped with Versus and reproduce a published write-up (tagged *example data*); the other 1 run is yours. They were not measured on the same machines: compare them with care.",
    ]);
  });
});
