// POST /api/v1/results end to end on a real, migrated PostgreSQL: the exported Next.js route
// handler is called with a Fetch Request, exactly as Next.js calls it. Covers what is stored
// (summaries computed at ingest, HdrHistogram, compact samples, time series, run metadata),
// creation of experiments/variants/metrics, idempotency, and every bad-input refusal — each of
// which must leave the database unchanged. Files share one database: every test works in a
// project of its own (random slugs) and row counts are compared before/after, never assumed.
import crypto from "node:crypto";
import * as hdr from "hdr-histogram-js";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST } from "~/app/api/v1/results/route";
import { db } from "~/server/db/client";
import { decodeSamples } from "~/server/runs/sample-codec";
import { LIFT_FROM } from "~/server/api/rest/lifted-samples";
import { createApiKey, revokeApiKey } from "~/server/projects/api-keys";
import { apiKeyCache } from "~/server/projects/api-key-cache";
import { createProject } from "~/server/projects/projects";
import { expectRefused, fieldPaths, rowCounts } from "~/test/rest-assertions";
import { lognormalSamples } from "~/server/stats/prng";

const counts = () => rowCounts(db);

afterAll(() => db.$disconnect());

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

const suffix = () => crypto.randomBytes(4).toString("hex");
const URL_ = "http://test.local/api/v1/results";

interface UploadBody {
  experiment: { slug: string; url: string };
  replayed: boolean;
  runs: { id: string; variant: string; repetition: number; metrics: string[] }[];
  created: { experiment: boolean; variants: string[]; metrics: string[] };
}

async function newProject() {
  const slug = `rest-${suffix()}`;
  const project = await createProject(db, { name: slug, slug, description: "" });
  const key = await createApiKey(db, slug, "test key");
  return { project, slug, key: key.secret, keyId: key.id };
}

function post(body: string | object, options: { key?: string | null; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { "content-type": "application/json", ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  return POST(new Request(URL_, { method: "POST", headers, body: typeof body === "string" ? body : JSON.stringify(body) }));
}

async function postJson<T = UploadBody>(body: string | object, options: Parameters<typeof post>[1] = {}) {
  const response = await post(body, options);
  return { status: response.status, headers: response.headers, body: (await response.json()) as T };
}

/** Lognormal latencies in ms: median ≈ 12 ms, long right tail. */
const latencies = (n: number, seed: number) => lognormalSamples(n, { median: 12, sigma: 0.45, seed });

function exactStats(values: number[]) {
  const n = values.length;
  const mean = values.reduce((a, b) => a + b, 0) / n;
  const sd = Math.sqrt(values.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - 1));
  const sorted = [...values].sort((a, b) => a - b);
  // The rank HdrHistogram uses: the smallest value with at least p % of the samples at or below it.
  // (p × n / 100 in integers: 99.9 / 100 × 10,000 is 9990.000000000002 in floating point.)
  const at = (p: number) => sorted[Math.max(1, Math.ceil((Math.round(p * 10) * n) / 1000)) - 1] as number;
  return { n, mean, sd, min: sorted[0] as number, max: sorted[n - 1] as number, p50: at(50), p90: at(90), p95: at(95), p99: at(99), p999: at(99.9) };
}

const relDiff = (actual: number, expected: number) => Math.abs(actual - expected) / Math.abs(expected);

function metric(key: string, extra: object = {}) {
  return { key, unit: "ms", direction: "lower_is_better", ...extra };
}

/** A valid one-run upload that creates its experiment. */
function simpleUpload(experiment: string, extra: object = {}) {
  return { experiment, create: true, runs: [{ variant: "baseline", metrics: [metric("latency", { samples: [1, 2, 3] })] }], ...extra };
}

// ---------------------------------------------------------------------------------------------
// Storage
// ---------------------------------------------------------------------------------------------

describe("POST /api/v1/results stores runs", () => {
  let ctx: Awaited<ReturnType<typeof newProject>>;
  beforeAll(async () => {
    ctx = await newProject();
  });

  it("stores 10,000 raw samples as exact summary figures, an HdrHistogram and one compact blob", async () => {
    const samples = latencies(10_000, 42);
    const exact = exactStats(samples);
    const response = await postJson(
      {
        experiment: "big-upload",
        create: true,
        runs: [{ variant: "plain", metrics: [metric("latency_ms", { samples })] }],
      },
      { key: ctx.key },
    );
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body.replayed).toBe(false);
    expect(response.body.experiment).toEqual({ slug: "big-upload", url: `http://test.local/p/${ctx.slug}/e/big-upload` });
    expect(response.body.runs).toHaveLength(1);

    const run = await db.run.findUniqueOrThrow({ where: { id: response.body.runs[0]?.id }, include: { results: { include: { metric: true } } } });
    expect(run.source).toBe("upload");
    expect(run.results).toHaveLength(1);
    const stored = run.results[0]!;
    expect(stored.metric.key).toBe("latency_ms");

    // Exact figures: n, mean, sample sd (n − 1), min, max.
    expect(stored.n).toBe(10_000n);
    expect(relDiff(stored.mean, exact.mean)).toBeLessThan(1e-9);
    expect(relDiff(stored.sd!, exact.sd)).toBeLessThan(1e-9);
    expect(stored.min).toBe(exact.min);
    expect(stored.max).toBe(exact.max);
    expect(relDiff(stored.sum!, exact.mean * exact.n)).toBeLessThan(1e-9);

    // Percentiles from the histogram: 3 significant digits, so within 0.1 % of the sorted ones.
    for (const key of ["p50", "p90", "p95", "p99", "p999"] as const) {
      expect(relDiff(stored[key]!, exact[key]), `${key}: stored ${stored[key]} vs exact ${exact[key]}`).toBeLessThan(0.001);
    }

    // The histogram is V2 compressed and holds every sample, recorded as round(value × scale).
    expect(stored.histogram).not.toBeNull();
    expect(stored.histogramScale).toBeGreaterThan(0);
    const histogram = hdr.decodeFromCompressedBase64(Buffer.from(stored.histogram!).toString("base64"));
    expect(histogram.totalCount).toBe(10_000);
    expect(relDiff(histogram.getValueAtPercentile(50) / stored.histogramScale!, exact.p50)).toBeLessThan(0.001);
    expect(relDiff(histogram.maxValue / stored.histogramScale!, exact.max)).toBeLessThan(0.001);

    // Raw samples: one blob (float64 below 100k samples), decoding to exactly what was sent.
    const decoded = decodeSamples(stored.samples!);
    expect(Array.from(decoded)).toEqual(samples);
    expect(stored.samples!.byteLength).toBeLessThan(10_000 * 8);
  });

  it("stores a summary-only metric as given, without histogram or samples", async () => {
    const summary = { n: 50, mean: 3.25, sd: 0.4, min: 2.5, max: 4.1, p50: 3.2, p90: 3.8, p95: 3.9, p99: 4.05, p999: 4.1, sum: 162.5 };
    const response = await postJson(
      { experiment: "summary-only", create: true, runs: [{ variant: "a", metrics: [metric("latency", { summary })] }] },
      { key: ctx.key },
    );
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    const stored = await db.runMetricResult.findFirstOrThrow({ where: { runId: response.body.runs[0]?.id } });
    expect({ ...stored, n: Number(stored.n) }).toMatchObject({ ...summary, histogram: null, histogramScale: null, samples: null });
  });

  it("a summary without min/max stores them as unknown, never as a number the tool did not print (wrk prints no minimum)", async () => {
    const response = await postJson(
      {
        experiment: "partial-summary",
        create: true,
        runs: [
          {
            variant: "a",
            metrics: [
              metric("latency", { summary: { n: 5296, mean: 6.16, sd: 8.8, max: 76.44, p50: 2.75, p90: 15.68, p99: 41.11 } }),
              metric("connect", { summary: { n: 10, mean: 4 } }),
            ],
          },
        ],
      },
      { key: ctx.key },
    );
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    const results = await db.runMetricResult.findMany({ where: { runId: response.body.runs[0]?.id }, include: { metric: true } });
    const latency = results.find((r) => r.metric.key === "latency")!;
    expect({ min: latency.min, max: latency.max, p50: latency.p50, mean: latency.mean }).toEqual({ min: null, max: 76.44, p50: 2.75, mean: 6.16 });
    const connect = results.find((r) => r.metric.key === "connect")!;
    expect({ min: connect.min, max: connect.max, p50: connect.p50 }).toEqual({ min: null, max: null, p50: null });
  });

  it("accepts samplesBase64 (little-endian float64) like a samples array", async () => {
    const samples = latencies(1000, 7);
    const samplesBase64 = Buffer.from(Float64Array.from(samples).buffer).toString("base64");
    const response = await postJson(
      { experiment: "base64", create: true, runs: [{ variant: "a", metrics: [metric("latency", { samplesBase64 })] }] },
      { key: ctx.key },
    );
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    const stored = await db.runMetricResult.findFirstOrThrow({ where: { runId: response.body.runs[0]?.id } });
    const exact = exactStats(samples);
    expect(Number(stored.n)).toBe(1000);
    expect(relDiff(stored.mean, exact.mean)).toBeLessThan(1e-9);
    expect(relDiff(stored.sd!, exact.sd)).toBeLessThan(1e-9);
    expect(Array.from(decodeSamples(stored.samples!))).toEqual(samples);
  });

  it("stores a large JSON samples array (read straight into a typed array) exactly as the same samples sent as samplesBase64", async () => {
    // Recorder-like values (µs resolution) in every form JSON allows, enough to be lifted out of the body.
    const samples = latencies(LIFT_FROM * 2, 11).map((value, i) =>
      i % 3 === 0 ? Math.round(value * 1000) / 1000 : i % 3 === 1 ? Math.round(value) : value / 1e6,
    );
    const text = JSON.stringify({ experiment: "lifted", create: true, runs: [{ variant: "json", metrics: [metric("latency", { samples })] }] }).replace(
      /,/g,
      ", ",
    );
    const lifted = await postJson(text, { key: ctx.key });
    const samplesBase64 = Buffer.from(Float64Array.from(samples).buffer).toString("base64");
    const base64 = await postJson({ experiment: "lifted", runs: [{ variant: "json", metrics: [metric("latency", { samplesBase64 })] }] }, { key: ctx.key });
    expect([lifted.status, base64.status], JSON.stringify(lifted.body)).toEqual([201, 201]);
    const [fromJson, fromBase64] = await Promise.all(
      [lifted, base64].map((response) =>
        db.runMetricResult.findFirstOrThrow({ where: { runId: response.body.runs[0]?.id }, omit: { id: true, runId: true, createdAt: true } }),
      ),
    );
    expect(Array.from(decodeSamples(fromJson!.samples!))).toEqual(samples);
    expect(fromJson).toEqual(fromBase64);
    // One bad sample at the end: the array stays in the body, and the refusal names it as before.
    const bad = text.replace(/\]\}\]\}\]\}$/, ', "x"]}]}]}');
    const { body } = await expectRefused(db, () => post(bad, { key: ctx.key }), 400, "BAD_REQUEST");
    expect(fieldPaths(body)).toEqual([`runs.0.metrics.0.samples.${samples.length}`]);
  });

  it("stores a time series given with intervalMs, and one with offsetsMs", async () => {
    const startedAt = "2026-03-01T10:00:00.000Z";
    const response = await postJson(
      {
        experiment: "series",
        create: true,
        runs: [
          {
            variant: "a",
            startedAt,
            metrics: [
              { key: "tps", unit: "req/s", direction: "higher_is_better", timeSeries: { intervalMs: 1000, values: [100, 120, 110, 130] } },
              metric("latency", { samples: [5, 6, 7], timeSeries: { startedAt: "2026-03-01T10:00:05.000Z", offsetsMs: [0, 250, 900], values: [5, 6, 7] } }),
            ],
          },
        ],
      },
      { key: ctx.key },
    );
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    const runId = response.body.runs[0]!.id;
    const series = await db.runTimeSeries.findMany({ where: { runId }, include: { metric: true } });
    const tps = series.find((s) => s.metric.key === "tps")!;
    expect(tps.offsetsMs).toEqual([0, 1000, 2000, 3000]);
    expect(tps.values).toEqual([100, 120, 110, 130]);
    expect(tps.startedAt.toISOString()).toBe(startedAt);
    const latency = series.find((s) => s.metric.key === "latency")!;
    expect(latency.offsetsMs).toEqual([0, 250, 900]);
    expect(latency.startedAt.toISOString()).toBe("2026-03-01T10:00:05.000Z");
    // A series-only metric is summarised from its points.
    const tpsResult = await db.runMetricResult.findFirstOrThrow({ where: { runId, metricId: tps.metricId } });
    expect({ n: Number(tpsResult.n), mean: tpsResult.mean, min: tpsResult.min, max: tpsResult.max }).toEqual({ n: 4, mean: 115, min: 100, max: 130 });
  });

  it("persists environment, commit, branch, tags, status, repetition and timestamps", async () => {
    const environment = { cpu: "AMD EPYC 7763", cores: 8, memoryGb: 32, os: "linux", runtime: { node: "20.19" } };
    const response = await postJson(
      {
        experiment: "metadata",
        create: true,
        runs: [
          {
            variant: "a",
            status: "failed",
            repetition: 7,
            startedAt: "2026-03-01T10:00:00Z",
            finishedAt: "2026-03-01T10:05:00Z",
            environment,
            gitCommit: "0123456789abcdef0123456789abcdef01234567",
            gitBranch: "feature/gzip",
            tags: ["ci", "nightly"],
            sourceDetail: "my harness 1.2",
            metrics: [metric("latency", { samples: [1, 2] })],
          },
        ],
      },
      { key: ctx.key },
    );
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body.runs[0]?.repetition).toBe(7);
    const run = await db.run.findUniqueOrThrow({ where: { id: response.body.runs[0]?.id } });
    expect(run).toMatchObject({
      status: "failed",
      repetition: 7,
      environment,
      gitCommit: "0123456789abcdef0123456789abcdef01234567",
      gitBranch: "feature/gzip",
      tags: ["ci", "nightly"],
      sourceDetail: "my harness 1.2",
      source: "upload",
    });
    expect(run.startedAt?.toISOString()).toBe("2026-03-01T10:00:00.000Z");
    expect(run.finishedAt?.toISOString()).toBe("2026-03-01T10:05:00.000Z");
  });

  it('creates the experiment (first variant is the baseline), variants and metrics with "create": true', async () => {
    const response = await postJson(
      {
        experiment: "created",
        experimentTitle: "Created by CI",
        create: true,
        runs: [
          {
            variant: "plain",
            metrics: [
              metric("latency", { samples: [1, 2, 3] }),
              { key: "size", unit: "B", direction: "lower_is_better", aggregation: "median", label: "Payload", summary: { n: 1, mean: 1000 } },
            ],
          },
          { variant: "gzip", metrics: [metric("latency", { samples: [1, 2] })] },
          { variant: "plain", metrics: [metric("latency", { samples: [4] })] },
        ],
      },
      { key: ctx.key },
    );
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body.created).toEqual({ experiment: true, variants: ["plain", "gzip"], metrics: ["latency", "size"] });
    // Repetitions number each variant's runs.
    expect(response.body.runs.map((r) => [r.variant, r.repetition])).toEqual([
      ["plain", 0],
      ["gzip", 0],
      ["plain", 1],
    ]);

    const experiment = await db.experiment.findUniqueOrThrow({
      where: { projectId_slug: { projectId: ctx.project.id, slug: "created" } },
      include: { variants: { orderBy: { position: "asc" } }, metrics: { orderBy: { position: "asc" } }, runs: true },
    });
    expect(experiment.title).toBe("Created by CI");
    expect(experiment.variants.map((v) => [v.name, v.isBaseline])).toEqual([
      ["plain", true],
      ["gzip", false],
    ]);
    expect(experiment.metrics.map((m) => [m.key, m.unit, m.direction, m.aggregation, m.label])).toEqual([
      ["latency", "ms", "lower_is_better", "mean", ""],
      ["size", "B", "lower_is_better", "median", "Payload"],
    ]);
    expect(experiment.runs).toHaveLength(3);

    // A later upload adds a variant (not a baseline: the experiment has one) and continues numbering.
    const later = await postJson(
      {
        experiment: "created",
        create: true,
        runs: [
          { variant: "zstd", metrics: [metric("latency", { samples: [1] })] },
          { variant: "plain", metrics: [metric("latency", { samples: [2] })] },
        ],
      },
      { key: ctx.key },
    );
    expect(later.status, JSON.stringify(later.body)).toBe(201);
    expect(later.body.created).toEqual({ experiment: false, variants: ["zstd"], metrics: [] });
    expect(later.body.runs.map((r) => [r.variant, r.repetition])).toEqual([
      ["zstd", 0],
      ["plain", 2],
    ]);
    const zstd = await db.variant.findFirstOrThrow({ where: { experimentId: experiment.id, name: "zstd" } });
    expect(zstd.isBaseline).toBe(false);
  });

  it("stores into an existing experiment without create when everything is known", async () => {
    const first = await postJson(simpleUpload("known"), { key: ctx.key });
    expect(first.status).toBe(201);
    const second = await postJson({ experiment: "known", runs: [{ variant: "baseline", metrics: [{ key: "latency", samples: [9] }] }] }, { key: ctx.key });
    expect(second.status, JSON.stringify(second.body)).toBe(201);
    expect(second.body.created).toEqual({ experiment: false, variants: [], metrics: [] });
  });
});

// ---------------------------------------------------------------------------------------------
// Unknown experiment, variant, metric; contradicting units
// ---------------------------------------------------------------------------------------------

describe("POST /api/v1/results without create", () => {
  let ctx: Awaited<ReturnType<typeof newProject>>;
  beforeAll(async () => {
    ctx = await newProject();
    const created = await postJson(simpleUpload("existing"), { key: ctx.key });
    expect(created.status).toBe(201);
  });

  it("answers 404 for an unknown experiment", async () => {
    const { body } = await expectRefused(
      db,
      () => post({ experiment: "no-such-experiment", runs: [{ variant: "baseline", metrics: [metric("latency", { samples: [1] })] }] }, { key: ctx.key }),
      404,
      "NOT_FOUND",
    );
    expect(body.error.message).toContain('No experiment "no-such-experiment"');
    expect(body.error.message).toContain('"create": true');
  });

  it("answers 422 for an unknown variant, naming it", async () => {
    const { body } = await expectRefused(
      db,
      () => post({ experiment: "existing", runs: [{ variant: "turbo", metrics: [metric("latency", { samples: [1] })] }] }, { key: ctx.key }),
      422,
      "UNPROCESSABLE",
    );
    expect(body.error.message).toContain('no variant "turbo"');
  });

  it("answers 422 for an unknown metric, naming the metric and the field", async () => {
    const { body } = await expectRefused(
      db,
      () =>
        post(
          {
            experiment: "existing",
            runs: [{ variant: "baseline", metrics: [metric("latency", { samples: [1] }), metric("throughput_rps", { samples: [1] })] }],
          },
          { key: ctx.key },
        ),
      422,
      "UNPROCESSABLE",
    );
    expect(body.error.message).toContain('no metric "throughput_rps"');
    expect(fieldPaths(body)).toEqual(["runs.0.metrics.1.key"]);
  });

  it("answers 422 when a new metric has no unit or direction, even with create", async () => {
    const { body } = await expectRefused(
      db,
      () => post({ experiment: "existing", create: true, runs: [{ variant: "baseline", metrics: [{ key: "new_metric", samples: [1] }] }] }, { key: ctx.key }),
      422,
      "UNPROCESSABLE",
    );
    expect(body.error.message).toContain('metric "new_metric" is new');
    expect(fieldPaths(body)).toEqual(["runs.0.metrics.0.unit"]);
  });

  it("says a message once when it holds for several runs, with how many, and names every field in the details", async () => {
    const runs = Array.from({ length: 6 }, (_, i) => ({ variant: i % 2 ? "candidate" : "baseline", metrics: [{ key: "undefined_metric", samples: [1] }] }));
    const { body } = await expectRefused(db, () => post({ experiment: "existing", create: true, runs }, { key: ctx.key }), 422, "UNPROCESSABLE");
    expect(body.error.message).toBe('metric "undefined_metric" is new: send its unit and direction (in at least one run) to create it (6 places)');
    expect(fieldPaths(body)).toEqual(runs.map((_, i) => `runs.${i}.metrics.0.unit`));
  });

  it("creates a new metric from the one run that defines it; other runs may leave unit and direction out, not contradict them", async () => {
    const defined = { unit: "ms", direction: "lower_is_better" };
    const created = await postJson(
      {
        experiment: "defined-once",
        create: true,
        runs: [
          { variant: "a", metrics: [{ key: "p_once", samples: [1, 2] }] },
          { variant: "a", metrics: [{ key: "p_once", ...defined, samples: [3] }] },
        ],
      },
      { key: ctx.key },
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.created.metrics).toEqual(["p_once"]);

    const { body } = await expectRefused(
      db,
      () =>
        post(
          {
            experiment: "defined-twice",
            create: true,
            runs: [
              { variant: "a", metrics: [{ key: "p_twice", ...defined, samples: [1] }] },
              { variant: "a", metrics: [{ key: "p_twice", unit: "s", samples: [2] }] },
            ],
          },
          { key: ctx.key },
        ),
      422,
      "UNPROCESSABLE",
    );
    expect(body.error.message).toContain('metric "p_twice" is measured in ms, not s');
    expect(fieldPaths(body)).toEqual(["runs.1.metrics.0.unit"]);
  });

  it("answers 422 when the unit contradicts the stored metric (with or without create)", async () => {
    for (const create of [false, true]) {
      const { body } = await expectRefused(
        db,
        () =>
          post(
            { experiment: "existing", create, runs: [{ variant: "baseline", metrics: [metric("latency", { unit: "s", samples: [1] })] }] },
            { key: ctx.key },
          ),
        422,
        "UNPROCESSABLE",
      );
      expect(body.error.message).toContain('metric "latency" is measured in ms, not s');
      expect(fieldPaths(body)).toEqual(["runs.0.metrics.0.unit"]);
    }
  });

  it("answers 422 when the direction contradicts the stored metric", async () => {
    const { body } = await expectRefused(
      db,
      () =>
        post(
          { experiment: "existing", runs: [{ variant: "baseline", metrics: [metric("latency", { direction: "higher_is_better", samples: [1] })] }] },
          { key: ctx.key },
        ),
      422,
      "UNPROCESSABLE",
    );
    expect(fieldPaths(body)).toEqual(["runs.0.metrics.0.direction"]);
  });
});

// ---------------------------------------------------------------------------------------------
// Idempotency
// ---------------------------------------------------------------------------------------------

describe("Idempotency-Key", () => {
  let ctx: Awaited<ReturnType<typeof newProject>>;
  beforeAll(async () => {
    ctx = await newProject();
  });

  const twoRuns = (experiment: string) => ({
    experiment,
    create: true,
    runs: [
      {
        variant: "a",
        metrics: [
          metric("latency", { samples: latencies(200, 1) }),
          metric("connect", { samples: latencies(50, 4) }),
          metric("queue", { summary: { n: 3, mean: 1 } }),
        ],
      },
      { variant: "b", metrics: [metric("latency", { samples: latencies(200, 2) })] },
      { variant: "a", metrics: [metric("latency", { samples: latencies(200, 3) })] },
    ],
  });

  it("stores one set of runs for a retried request and replays the answer", async () => {
    const idempotencyKey = `retry-${suffix()}`;
    const body = JSON.stringify(twoRuns("retried"));
    const first = await postJson(body, { key: ctx.key, headers: { "idempotency-key": idempotencyKey } });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.replayed).toBe(false);
    const before = await counts();

    const second = await postJson(body, { key: ctx.key, headers: { "idempotency-key": idempotencyKey } });
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(second.body.replayed).toBe(true);
    expect(first.body.runs[0]?.metrics).toEqual(["latency", "connect", "queue"]);
    expect(second.body.runs).toEqual(first.body.runs);
    expect(second.body.experiment).toEqual(first.body.experiment);
    expect(await counts()).toEqual(before);

    const experiment = await db.experiment.findUniqueOrThrow({
      where: { projectId_slug: { projectId: ctx.project.id, slug: "retried" } },
      include: { runs: true },
    });
    expect(experiment.runs).toHaveLength(3);
    expect(await db.ingestRequest.count({ where: { projectId: ctx.project.id, idempotencyKey } })).toBe(1);
  });

  it("answers 409 for the same key with a different body, storing nothing", async () => {
    const idempotencyKey = `conflict-${suffix()}`;
    const first = await postJson(simpleUpload("conflicting"), { key: ctx.key, headers: { "idempotency-key": idempotencyKey } });
    expect(first.status).toBe(201);
    const { body } = await expectRefused(
      db,
      () =>
        post(simpleUpload("conflicting", { runs: [{ variant: "baseline", metrics: [metric("latency", { samples: [4, 5, 6] })] }] }), {
          key: ctx.key,
          headers: { "idempotency-key": idempotencyKey },
        }),
      409,
      "CONFLICT",
    );
    expect(body.error.message).toContain(idempotencyKey);
    expect(body.error.message).toContain("different request body");
  });

  it("the same key in another project is a different request", async () => {
    const other = await newProject();
    const idempotencyKey = `shared-${suffix()}`;
    const a = await postJson(simpleUpload("same-key"), { key: ctx.key, headers: { "idempotency-key": idempotencyKey } });
    const b = await postJson(simpleUpload("same-key"), { key: other.key, headers: { "idempotency-key": idempotencyKey } });
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(b.body.runs[0]?.id).not.toBe(a.body.runs[0]?.id);
  });

  it("stores exactly once when 5 identical requests race", async () => {
    const idempotencyKey = `race-${suffix()}`;
    const body = JSON.stringify(twoRuns("raced"));
    const before = await counts();
    const responses = await Promise.all(Array.from({ length: 5 }, () => postJson(body, { key: ctx.key, headers: { "idempotency-key": idempotencyKey } })));
    for (const response of responses) expect([200, 201], JSON.stringify(response.body)).toContain(response.status);
    expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
    const runIds = responses[0]!.body.runs.map((r) => r.id);
    expect(runIds).toHaveLength(3);
    for (const response of responses) expect(response.body.runs.map((r) => r.id)).toEqual(runIds);

    const experiment = await db.experiment.findUniqueOrThrow({
      where: { projectId_slug: { projectId: ctx.project.id, slug: "raced" } },
      include: { runs: true },
    });
    expect(experiment.runs.map((r) => r.id).sort()).toEqual([...runIds].sort());
    const after = await counts();
    expect(after.runs - before.runs).toBe(3);
    expect(after.results - before.results).toBe(5);
    expect(after.ingestRequests - before.ingestRequests).toBe(1);
    expect(after.experiments - before.experiments).toBe(1);
  });

  it("concurrent uploads creating the same new experiment all succeed (CI matrix jobs)", async () => {
    const body = (i: number) => ({
      experiment: "matrix",
      create: true,
      runs: [
        {
          variant: `job-${i % 2}`,
          metrics: [
            metric("latency", { samples: [i + 1, i + 2] }),
            { key: `extra_${i % 2}`, unit: "count", direction: "lower_is_better", summary: { n: 1, mean: i } },
          ],
        },
      ],
    });
    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, i) => postJson(body(i), { key: ctx.key, headers: i % 2 ? { "idempotency-key": `matrix-${suffix()}` } : {} })),
    );
    for (const response of responses) expect(response.status, JSON.stringify(response.body)).toBe(201);
    const experiment = await db.experiment.findUniqueOrThrow({
      where: { projectId_slug: { projectId: ctx.project.id, slug: "matrix" } },
      include: { runs: true, variants: true, metrics: true },
    });
    expect(experiment.runs).toHaveLength(6);
    expect(experiment.variants.map((v) => v.name).sort()).toEqual(["job-0", "job-1"]);
    expect(experiment.variants.filter((v) => v.isBaseline)).toHaveLength(1);
    expect(experiment.metrics.map((m) => m.key).sort()).toEqual(["extra_0", "extra_1", "latency"]);
  });

  it("refuses an Idempotency-Key with invalid characters", async () => {
    const { body } = await expectRefused(
      db,
      () => post(simpleUpload("bad-key"), { key: ctx.key, headers: { "idempotency-key": "x".repeat(201) } }),
      400,
      "BAD_REQUEST",
    );
    expect(body.error.message).toContain("Idempotency-Key");
  });
});

// ---------------------------------------------------------------------------------------------
// Bad input: the right 4xx, a message naming the problem, the database unchanged
// ---------------------------------------------------------------------------------------------

describe("bad input", () => {
  let ctx: Awaited<ReturnType<typeof newProject>>;
  beforeAll(async () => {
    ctx = await newProject();
  });

  it("malformed JSON → 400", async () => {
    const { body } = await expectRefused(db, () => post('{"experiment": "broken", "runs": [', { key: ctx.key }), 400, "BAD_REQUEST");
    expect(body.error.message).toMatch(/^Malformed JSON/);
  });

  it("an empty body → 400", async () => {
    const { body } = await expectRefused(db, () => post("", { key: ctx.key }), 400, "BAD_REQUEST");
    expect(body.error.message).toContain("Request body is empty");
  });

  it("JSON that is not an object → 400", async () => {
    const { body } = await expectRefused(db, () => post("[1, 2, 3]", { key: ctx.key }), 400, "BAD_REQUEST");
    expect(body.error.message).toContain("Invalid input");
  });

  it("wrong types → 400 naming each field", async () => {
    const { body } = await expectRefused(
      db,
      () => post({ experiment: "wrong-types", create: "yes", runs: [{ variant: "a", metrics: [metric("latency", { samples: "abc" })] }] }, { key: ctx.key }),
      400,
      "BAD_REQUEST",
    );
    expect(fieldPaths(body)).toEqual(expect.arrayContaining(["runs.0.metrics.0.samples", "create"]));
    expect(body.error.message).toContain("runs.0.metrics.0.samples");
  });

  it("a string where a sample number belongs → 400 naming the sample", async () => {
    const { body } = await expectRefused(
      db,
      () => post(simpleUpload("wrong-sample", { runs: [{ variant: "a", metrics: [metric("latency", { samples: [1, "2", 3] })] }] }), { key: ctx.key }),
      400,
      "BAD_REQUEST",
    );
    expect(fieldPaths(body)).toEqual(["runs.0.metrics.0.samples.1"]);
    expect(body.error.message).toContain("sample must be a number");
  });

  it("Infinity (1e999 in the JSON text) → 400", async () => {
    const text = `{"experiment": "infinite", "create": true, "runs": [{"variant": "a", "metrics": [{"key": "latency", "unit": "ms", "direction": "lower_is_better", "samples": [1, 1e999, 3]}]}]}`;
    expect(JSON.parse(text).runs[0].metrics[0].samples[1]).toBe(Infinity);
    const { body } = await expectRefused(db, () => post(text, { key: ctx.key }), 400, "BAD_REQUEST");
    expect(fieldPaths(body)).toEqual(["runs.0.metrics.0.samples.1"]);
    expect(body.error.message).toContain("sample must be a finite number");
  });

  it("Infinity in a summary (-1e999) → 400", async () => {
    const text = `{"experiment": "infinite-summary", "create": true, "runs": [{"variant": "a", "metrics": [{"key": "latency", "unit": "ms", "direction": "lower_is_better", "summary": {"n": 3, "mean": -1e999}}]}]}`;
    const { body } = await expectRefused(db, () => post(text, { key: ctx.key }), 400, "BAD_REQUEST");
    expect(fieldPaths(body)).toEqual(["runs.0.metrics.0.summary.mean"]);
  });

  it("NaN inside samplesBase64 → 400", async () => {
    const samplesBase64 = Buffer.from(Float64Array.from([1.5, NaN, 2.5]).buffer).toString("base64");
    const { body } = await expectRefused(
      db,
      () => post(simpleUpload("nan-base64", { runs: [{ variant: "a", metrics: [metric("latency", { samplesBase64 })] }] }), { key: ctx.key }),
      400,
      "BAD_REQUEST",
    );
    expect(fieldPaths(body)).toEqual(["runs.0.metrics.0.samplesBase64"]);
    expect(body.error.message).toContain("NaN");
  });

  it("samplesBase64 that is not whole float64 values → 400", async () => {
    const samplesBase64 = Buffer.from([1, 2, 3, 4, 5]).toString("base64");
    const { body } = await expectRefused(
      db,
      () => post(simpleUpload("short-base64", { runs: [{ variant: "a", metrics: [metric("latency", { samplesBase64 })] }] }), { key: ctx.key }),
      400,
      "BAD_REQUEST",
    );
    expect(fieldPaths(body)).toEqual(["runs.0.metrics.0.samplesBase64"]);
    expect(body.error.message).toContain("float64");
  });

  it("a negative summary n → 400", async () => {
    const { body } = await expectRefused(
      db,
      () => post(simpleUpload("negative-n", { runs: [{ variant: "a", metrics: [metric("latency", { summary: { n: -5, mean: 3 } })] }] }), { key: ctx.key }),
      400,
      "BAD_REQUEST",
    );
    expect(fieldPaths(body)).toContain("runs.0.metrics.0.summary.n");
    expect(body.error.message).toContain("n cannot be negative");
  });

  it("a negative repetition → 400", async () => {
    const { body } = await expectRefused(
      db,
      () =>
        post(simpleUpload("negative-repetition", { runs: [{ variant: "a", repetition: -1, metrics: [metric("latency", { samples: [1] })] }] }), {
          key: ctx.key,
        }),
      400,
      "BAD_REQUEST",
    );
    expect(fieldPaths(body)).toEqual(["runs.0.repetition"]);
    expect(body.error.message).toContain("repetition cannot be negative");
  });

  it("a fractional count → 400", async () => {
    const { body } = await expectRefused(
      db,
      () => post(simpleUpload("fractional-n", { runs: [{ variant: "a", metrics: [metric("latency", { summary: { n: 2.5, mean: 3 } })] }] }), { key: ctx.key }),
      400,
      "BAD_REQUEST",
    );
    expect(fieldPaths(body)).toEqual(["runs.0.metrics.0.summary.n"]);
    expect(body.error.message).toContain("n must be a whole number");
  });

  it("a count of 2^64+1 → 400 giving the largest count, not 'not a whole number'", async () => {
    const text = JSON.stringify(simpleUpload("huge-n", { runs: [{ variant: "a", metrics: [metric("latency", { summary: { n: 1, mean: 3 } })] }] })).replace(
      '"n":1',
      '"n":18446744073709551617',
    );
    const { body } = await expectRefused(db, () => post(text, { key: ctx.key }), 400, "BAD_REQUEST");
    expect(fieldPaths(body)).toEqual(["runs.0.metrics.0.summary.n"]);
    expect(body.error.message).toContain("n must be at most 9007199254740991 (2^53 − 1)");
  });

  it("a negative sd → 400", async () => {
    const { body } = await expectRefused(
      db,
      () =>
        post(simpleUpload("negative-sd", { runs: [{ variant: "a", metrics: [metric("latency", { summary: { n: 5, mean: 3, sd: -1 } })] }] }), { key: ctx.key }),
      400,
      "BAD_REQUEST",
    );
    expect(fieldPaths(body)).toEqual(["runs.0.metrics.0.summary.sd"]);
  });

  it("an empty samples array → 400", async () => {
    const { body } = await expectRefused(
      db,
      () => post(simpleUpload("empty-samples", { runs: [{ variant: "a", metrics: [metric("latency", { samples: [] })] }] }), { key: ctx.key }),
      400,
      "BAD_REQUEST",
    );
    expect(fieldPaths(body)).toEqual(["runs.0.metrics.0.samples"]);
    expect(body.error.message).toContain("samples cannot be empty");
  });

  it("the same metric twice in one run → 400 naming it", async () => {
    const { body } = await expectRefused(
      db,
      () =>
        post(
          simpleUpload("duplicate-metric", { runs: [{ variant: "a", metrics: [metric("latency", { samples: [1] }), metric("latency", { samples: [2] })] }] }),
          { key: ctx.key, headers: { "idempotency-key": `dup-${suffix()}` } },
        ),
      400,
      "BAD_REQUEST",
    );
    expect(fieldPaths(body)).toEqual(["runs.0.metrics.1.key"]);
    expect(body.error.message).toContain('"latency"');
  });

  it("a metric with no data → 400", async () => {
    const { body } = await expectRefused(
      db,
      () => post(simpleUpload("no-data", { runs: [{ variant: "a", metrics: [metric("latency")] }] }), { key: ctx.key }),
      400,
      "BAD_REQUEST",
    );
    expect(body.error.message).toContain("give samples, samplesBase64, summary, histogram, timeSeries or value");
  });

  it("empty runs → 400", async () => {
    const { body } = await expectRefused(db, () => post({ experiment: "no-runs", create: true, runs: [] }, { key: ctx.key }), 400, "BAD_REQUEST");
    expect(fieldPaths(body)).toEqual(["runs"]);
    expect(body.error.message).toContain("runs cannot be empty");
  });

  it("a bad experiment slug → 400", async () => {
    const { body } = await expectRefused(db, () => post(simpleUpload("Not A Slug!"), { key: ctx.key }), 400, "BAD_REQUEST");
    expect(fieldPaths(body)).toEqual(["experiment"]);
  });

  it("a bad value in a later run refuses the whole upload (nothing half-stored)", async () => {
    // Valid at the schema level, so the first run gets as far as the transaction; the unknown
    // metric in the second run must roll everything back, including the new experiment.
    const { body } = await expectRefused(
      db,
      () =>
        post(
          {
            experiment: "half",
            create: true,
            runs: [
              { variant: "a", metrics: [metric("latency", { samples: [1] })] },
              { variant: "b", metrics: [{ key: "nounit", samples: [1] }] },
            ],
          },
          { key: ctx.key },
        ),
      422,
      "UNPROCESSABLE",
    );
    expect(fieldPaths(body)).toEqual(["runs.1.metrics.0.unit"]);
  });

  it("a missing Authorization header → 401 with WWW-Authenticate", async () => {
    const { response, body } = await expectRefused(db, () => post(simpleUpload("no-auth"), { key: null }), 401, "UNAUTHORIZED");
    expect(response.headers.get("www-authenticate")).toBe('Bearer realm="versus"');
    expect(body.error.message).toContain("Missing Authorization header");
  });

  it("a malformed Authorization header → 401", async () => {
    for (const authorization of [`Basic ${Buffer.from("a:b").toString("base64")}`, "Bearer", `Bearer ${ctx.key} extra`]) {
      const { response, body } = await expectRefused(db, () => post(simpleUpload("bad-auth"), { headers: { authorization } }), 401, "UNAUTHORIZED");
      expect(body.error.message).toContain("Malformed Authorization header");
      expect(response.headers.get("www-authenticate")).toContain("Bearer");
    }
  });

  it("an unknown key → 401", async () => {
    const { body } = await expectRefused(
      db,
      () => post(simpleUpload("unknown-key"), { key: `vs_${crypto.randomBytes(32).toString("base64url")}` }),
      401,
      "UNAUTHORIZED",
    );
    expect(body.error.message).toBe("Unknown API key");
  });

  it("a revoked key → 401 saying it was revoked", async () => {
    const revoked = await createApiKey(db, ctx.slug, "old CI key");
    await revokeApiKey(db, ctx.slug, revoked.id);
    const { body } = await expectRefused(db, () => post(simpleUpload("revoked-key"), { key: revoked.secret }), 401, "UNAUTHORIZED");
    expect(body.error.message).toContain('API key "old CI key" was revoked on');
  });

  it("a key used before, then revoked by another process → 401 once the change is heard", async () => {
    const key = await createApiKey(db, ctx.slug, "kept CI key");
    await apiKeyCache().ready();
    expect((await post(simpleUpload("kept-key"), { key: key.secret })).status).toBe(201);
    // This process keeps the key it read (server/projects/api-key-cache.ts); another one revokes it.
    const other = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await other.connect();
    try {
      await other.query(`UPDATE "ApiKey" SET "revokedAt" = now() WHERE "id" = $1`, [key.id]);
    } finally {
      await other.end();
    }
    let response: Response | undefined;
    const status = async () => (response = await post(simpleUpload("kept-key"), { key: key.secret })).status;
    await expect.poll(status, { timeout: 10_000, interval: 20 }).toBe(401);
    expect(((await response!.json()) as { error: { message: string } }).error.message).toContain('API key "kept CI key" was revoked on');
  });

  it("a body over the limit → 413 from Content-Length, before reading it", async () => {
    const { body } = await expectRefused(
      db,
      () =>
        POST(
          new Request(URL_, {
            method: "POST",
            headers: { authorization: `Bearer ${ctx.key}`, "content-type": "application/json", "content-length": "100000000" },
            body: JSON.stringify(simpleUpload("too-large")),
          }),
        ),
      413,
      "PAYLOAD_TOO_LARGE",
    );
    expect(body.error.message).toContain("larger than the limit of 64 MB");
    expect(body.error.message).toContain("VERSUS_MAX_BODY_BYTES");
  });

  it("a key of project A cannot store into project B's experiment of the same slug", async () => {
    const a = await newProject();
    const b = await newProject();
    const slug = `shared-${suffix()}`;
    const experimentB = await db.experiment.create({
      data: {
        projectId: b.project.id,
        slug,
        title: "B's experiment",
        variants: { create: [{ name: "baseline", isBaseline: true }] },
        metrics: { create: [{ key: "latency", unit: "ms", direction: "lower_is_better" }] },
      },
    });
    // Without create: A has no such experiment.
    const { body } = await expectRefused(
      db,
      () => post({ experiment: slug, runs: [{ variant: "baseline", metrics: [{ key: "latency", samples: [1] }] }] }, { key: a.key }),
      404,
      "NOT_FOUND",
    );
    expect(body.error.message).toContain(`in project "${a.slug}"`);
    // With create: the runs land in A's own new experiment.
    const created = await postJson(
      { experiment: slug, create: true, runs: [{ variant: "baseline", metrics: [metric("latency", { samples: [1] })] }] },
      { key: a.key },
    );
    expect(created.status).toBe(201);
    expect(created.body.created.experiment).toBe(true);
    expect(created.body.experiment.url).toContain(`/p/${a.slug}/e/${slug}`);
    const run = await db.run.findUniqueOrThrow({ where: { id: created.body.runs[0]?.id }, include: { experiment: true } });
    expect(run.experiment.projectId).toBe(a.project.id);
    expect(await db.run.count({ where: { experimentId: experimentB.id } })).toBe(0);
  });
});

describe("POST /api/v1/results: run warnings", () => {
  it("stores a run's warnings as sent, and none when it gives none", async () => {
    const { key } = await newProject();
    const warnings = ['probe "app-1": process_cpu_seconds_total went down at 6 s (target restarted?); the interval was skipped'];
    const reply = await postJson(
      {
        experiment: "warned",
        create: true,
        runs: [
          { variant: "baseline", warnings, metrics: [metric("latency", { samples: [1, 2, 3] })] },
          { variant: "baseline", metrics: [metric("latency", { samples: [2] })] },
        ],
      },
      { key },
    );
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    const stored = await db.run.findMany({ where: { id: { in: reply.body.runs.map((run) => run.id) } }, select: { id: true, warnings: true } });
    const byId = new Map(stored.map((run) => [run.id, run.warnings]));
    expect(reply.body.runs.map((run) => byId.get(run.id))).toEqual([warnings, []]);
  });

  it("refuses a blank warning, naming the field; nothing is written", async () => {
    const { key } = await newProject();
    const before = await counts();
    const reply = await postJson<{ error: { details: { fields: { path: unknown[]; message: string }[] } } }>(
      { experiment: "warned", create: true, runs: [{ variant: "baseline", warnings: ["  "], metrics: [metric("latency", { samples: [1] })] }] },
      { key },
    );
    expect(reply.status).toBe(400);
    expect(reply.body.error.details.fields).toEqual([{ path: ["runs", 0, "warnings", 0], message: "warnings: a warning cannot be blank" }]);
    expect(await counts()).toEqual(before);
  });
});
