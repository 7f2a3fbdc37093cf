// GET /api/v1/experiments/{slugOrId}/comparison end to end on a real, migrated PostgreSQL: runs are
// uploaded through POST /api/v1/results and the comparison is read back through the exported
// Next.js route handlers, exactly as Next.js calls them (and once through the tRPC procedure).
// The main data set is docs/examples.md case 5 (Kafka producer serializers, 5 runs each): the figures
// below are the published per-run values, and the expected statistics are exact (U-test p-values
// are counts over the C(10, 5) = 252 equally likely rank arrangements).
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET } from "~/app/api/v1/experiments/[slugOrId]/comparison/route";
import { addMember, signedInUser } from "~/test/signed-in";
import { db } from "~/server/db/client";
import type { TComparison } from "~/server/schemas/comparison";
import { ZExperimentInput } from "~/server/schemas/experiment";
import { createApiKey } from "~/server/projects/api-keys";
import { createExperiment } from "~/server/experiments/experiments";
import { createProject } from "~/server/projects/projects";
import { lognormalSamples } from "~/server/stats/prng";
import { KAFKA_VARIANTS, MESSAGE_SIZE_B, MESSAGES, SEND_TIME_MS } from "~/test/fixtures/kafka-published-figures";
import { uploadStored } from "~/test/rest-assertions";

afterAll(() => db.$disconnect());

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

const suffix = () => crypto.randomBytes(4).toString("hex");

interface ErrorBody {
  error: { code: string; message: string; details?: { fields: { path: (string | number)[]; message: string }[] } };
}
type MetricEntry = TComparison["metrics"][number];
type Comparison = NonNullable<MetricEntry["comparison"]>;

async function newProject() {
  const slug = `cmp-${suffix()}`;
  const project = await createProject(db, { name: slug, slug, description: "" });
  const key = await createApiKey(db, slug, "test key");
  return { project, slug, key: key.secret };
}

async function getComparison<T = TComparison>(slugOrId: string, options: { key?: string | null; baseline?: string } = {}) {
  const url = new URL(`http://test.local/api/v1/experiments/${encodeURIComponent(slugOrId)}/comparison`);
  if (options.baseline !== undefined) url.searchParams.set("baseline", options.baseline);
  const headers: Record<string, string> = {};
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  const response = await GET(new Request(url, { headers }), { params: Promise.resolve({ slugOrId }) });
  return { status: response.status, headers: response.headers, body: (await response.json()) as T };
}

function metricOf(body: TComparison, key: string): MetricEntry {
  const entry = body.metrics.find((m) => m.key === key);
  if (!entry) throw new Error(`no metric "${key}" in ${body.metrics.map((m) => m.key).join(", ")}`);
  return entry;
}

function comparisonOf(body: TComparison, key: string): Comparison {
  const comparison = metricOf(body, key).comparison;
  if (!comparison) throw new Error(`metric "${key}" has no comparison: ${metricOf(body, key).reason}`);
  return comparison;
}

function candidate(comparison: Comparison, name: string) {
  const found = comparison.comparisons.find((c) => c.candidate === name);
  if (!found) throw new Error(`no candidate "${name}"`);
  return found;
}

function stats(comparison: Comparison, name: string) {
  const found = comparison.variants.find((v) => v.variant === name);
  if (!found) throw new Error(`no variant "${name}"`);
  return found;
}

/** candidate → verdict, for every metric with a comparison. */
function verdicts(body: TComparison): Record<string, Record<string, string>> {
  return Object.fromEntries(
    body.metrics.filter((m) => m.comparison).map((m) => [m.key, Object.fromEntries(m.comparison!.comparisons.map((c) => [c.candidate, c.verdict]))]),
  );
}

/** Lognormal latencies in ms: median ≈ `median`, long right tail. */
const latencies = (n: number, seed: number, median = 12) => lognormalSamples(n, { median, sigma: 0.45, seed });

/** The rank HdrHistogram uses: the smallest value with at least p % of the samples at or below it. */
function exactPercentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(1, Math.ceil((Math.round(p * 10) * sorted.length) / 1000)) - 1] as number;
}

const relDiff = (actual: number, expected: number) => Math.abs(actual - expected) / Math.abs(expected);

// ---------------------------------------------------------------------------------------------
// docs/examples.md case 5: Kafka producer serializers, 1,000,000 messages per run, 5 runs each
// (the figures: test/fixtures/kafka-published-figures.ts)
// ---------------------------------------------------------------------------------------------

const SEED_COUNT = 252; // C(10, 5): arrangements of 5 vs 5 ranks

describe("GET /api/v1/experiments/{slugOrId}/comparison — Kafka serializers (docs/examples.md case 5)", () => {
  let ctx: Awaited<ReturnType<typeof newProject>>;
  let experimentId: string;
  const slug = "kafka-serializers";

  beforeAll(async () => {
    ctx = await newProject();
    // Defined first (as in the UI), with a metric no run reports; the runs then arrive by upload.
    await createExperiment(
      db,
      ctx.slug,
      ZExperimentInput.parse({
        title: "Kafka producer serializers",
        slug,
        warmupRuns: 0,
        measuredRuns: 5,
        variants: KAFKA_VARIANTS.map((name, i) => ({ name, isBaseline: i === 0 })),
        metrics: [
          { key: "send_time_ms", label: "Average send time", unit: "ms", direction: "lower_is_better", aggregation: "mean" },
          { key: "message_size_bytes", label: "Average message size", unit: "B", direction: "lower_is_better", aggregation: "mean" },
          { key: "gc_pause_ms", label: "GC pause", unit: "ms", direction: "lower_is_better", aggregation: "mean" },
        ],
      }),
    );
    experimentId = (await db.experiment.findFirstOrThrow({ where: { projectId: ctx.project.id, slug } })).id;
    // Interleaved like a real schedule: repetition i of every variant, then i + 1.
    const runs = [0, 1, 2, 3, 4].flatMap((i) =>
      KAFKA_VARIANTS.map((variant) => ({
        variant,
        sourceDetail: "docs/examples.md case 5 (published per-run averages)",
        metrics: [
          { key: "send_time_ms", summary: { n: MESSAGES, mean: SEND_TIME_MS[variant][i] } },
          { key: "message_size_bytes", summary: { n: MESSAGES, mean: MESSAGE_SIZE_B[variant][i] } },
        ],
      })),
    );
    await uploadStored(ctx.key, { experiment: slug, runs: runs.slice(0, 6) });
    await uploadStored(ctx.key, { experiment: slug, runs: runs.slice(6) });
    // A failed run is stored but never compared (its outlier would otherwise turn KOTLINX's lead into a tie).
    await uploadStored(ctx.key, {
      experiment: slug,
      runs: [{ variant: "KOTLINX_JSON", status: "failed", metrics: [{ key: "send_time_ms", summary: { n: 10, mean: 40 } }] }],
    });
  });

  it("KOTLINX_JSON is better than SPRING_JSON (Holm p = 2 · 4/252); JACKSON_OBJECT_MAPPER shows no change", async () => {
    const { status, body } = await getComparison(slug, { key: ctx.key });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.experiment).toEqual({ slug, title: "Kafka producer serializers", alpha: 0.05 });
    expect(body.baseline).toBe("SPRING_JSON");
    expect(body.variants).toEqual(KAFKA_VARIANTS.map((name, i) => ({ name, isBaseline: i === 0, runs: 5 })));
    expect(body.metrics.map((m) => m.key)).toEqual(["send_time_ms", "message_size_bytes", "gc_pause_ms"]);

    const send = metricOf(body, "send_time_ms");
    expect(send).toMatchObject({ unit: "ms", direction: "lower_is_better", aggregation: "mean", reason: null });
    const comparison = comparisonOf(body, "send_time_ms");
    expect(comparison.metric).toEqual({ key: "send_time_ms", unit: "ms", direction: "lower_is_better" });

    // KOTLINX: one of 25 pairs above SPRING (2.950 > 2.947), U = 1: exact two-sided p = 2·2/252,
    // the smaller of two p-values, so Holm multiplies it by 2.
    const kotlinx = candidate(comparison, "KOTLINX_JSON");
    expect(kotlinx).toMatchObject({
      baseline: "SPRING_JSON",
      nBaseline: 5,
      nCandidate: 5,
      verdict: "better",
      evidence: "strong",
      adjustment: "holm",
      minReplicates: 5,
      weak: null,
    });
    expect(kotlinx.mannWhitney).toMatchObject({ u: 1, method: "exact", ties: false });
    expect(kotlinx.mannWhitney!.p).toBeCloseTo(4 / SEED_COUNT, 10);
    expect(kotlinx.pAdjusted).toBeCloseTo((4 / SEED_COUNT) * 2, 10);
    expect(kotlinx.pAdjusted).toBeCloseTo(0.032, 3);
    // Ratio of medians: 2.887 / 3.019.
    expect(kotlinx.change.ratio).toBeCloseTo(2.887 / 3.019, 10);
    expect(kotlinx.change.percent).toBeCloseTo((2.887 / 3.019 - 1) * 100, 8);
    expect(kotlinx.change.percent).toBeCloseTo(-4.372, 3);
    expect(kotlinx.change.ratioCi!.high).toBeLessThan(1);
    expect(kotlinx.change.ciIncludesNoChange).toBe(false);
    expect(kotlinx.reason).toMatch(/Holm/);
    expect(kotlinx.reason).toMatch(/lower is better/);

    // JACKSON: U = 6 (3.202 above four, 2.993 above two): exact p = 2·28/252, no change after Holm.
    const jackson = candidate(comparison, "JACKSON_OBJECT_MAPPER");
    expect(jackson).toMatchObject({ verdict: "no_change", evidence: "strong", adjustment: "holm" });
    expect(jackson.mannWhitney).toMatchObject({ u: 6, method: "exact" });
    expect(jackson.mannWhitney!.p).toBeCloseTo(56 / SEED_COUNT, 10);
    expect(jackson.pAdjusted).toBeCloseTo(56 / SEED_COUNT, 10);
    expect(jackson.change.ratio).toBeCloseTo(2.919 / 3.019, 10);
    expect(jackson.change.percent).toBeCloseTo(-3.312, 3);
    expect(jackson.change.ciIncludesNoChange).toBe(true);
    expect(jackson.reason).toMatch(/no significant difference/);

    // The sd shown is the sample sd (n − 1); the write-up's 0.182 / 0.137 / 0.040 are population sds.
    const sds = { SPRING_JSON: [0.204, 0.182], JACKSON_OBJECT_MAPPER: [0.153, 0.137], KOTLINX_JSON: [0.045, 0.04] } as const;
    for (const name of KAFKA_VARIANTS) {
      const s = stats(comparison, name);
      expect(s.sdKind).toBe("sample");
      expect(s.n).toBe(5);
      expect(Math.abs(s.sd! - sds[name][0]), `${name} sample sd ${s.sd}`).toBeLessThan(5e-4);
      expect(Math.abs(s.populationSd! - sds[name][1]), `${name} population sd ${s.populationSd}`).toBeLessThan(5e-4);
      const values = SEND_TIME_MS[name];
      expect(s.mean).toBeCloseTo(values.reduce((a, b) => a + b, 0) / 5, 10);
      expect(s.min).toBe(Math.min(...values));
      expect(s.max).toBe(Math.max(...values));
      // Summaries only: no histograms, so no merged percentiles.
      expect(s.percentiles).toBeNull();
    }
    expect(stats(comparison, "SPRING_JSON").median).toBe(3.019);
    // The ranking only separates non-overlapping median CIs: 5 runs give [min, max] intervals.
    expect(comparison.ranking.map((r) => r.variant)).toEqual(["KOTLINX_JSON", "JACKSON_OBJECT_MAPPER", "SPRING_JSON"]);
    // An A/A split needs 2 × 4 runs of one variant.
    expect(comparison.noise.falsePositiveRate).toBeNull();
    expect(comparison.noise.reason).toMatch(/needs ≥ 8 runs/);

    // Message size: SPRING_JSON's epoch-millis dates make its messages ~5% smaller than both others.
    const size = comparisonOf(body, "message_size_bytes");
    for (const name of ["JACKSON_OBJECT_MAPPER", "KOTLINX_JSON"]) {
      const c = candidate(size, name);
      expect(c.verdict, c.reason).toBe("worse");
      expect(c.change.percent).toBeCloseTo((190.34 / 181.34789 - 1) * 100, 1);
      expect(c.mannWhitney?.ties).toBe(true);
    }
    expect(stats(size, "SPRING_JSON").sd).toBe(0);

    // A metric no run reports has no comparison, and says why.
    const gc = metricOf(body, "gc_pause_ms");
    expect(gc.comparison).toBeNull();
    expect(gc.reason).toBe('the baseline "SPRING_JSON" has no runs with this metric');
  });

  it("?baseline=KOTLINX_JSON flips the comparison: SPRING_JSON is worse, JACKSON_OBJECT_MAPPER still no change", async () => {
    const { status, body } = await getComparison(slug, { key: ctx.key, baseline: "KOTLINX_JSON" });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.baseline).toBe("KOTLINX_JSON");
    expect(body.variants.filter((v) => v.isBaseline).map((v) => v.name)).toEqual(["KOTLINX_JSON"]);
    const comparison = comparisonOf(body, "send_time_ms");
    expect(comparison.comparisons.map((c) => c.candidate)).toEqual(["SPRING_JSON", "JACKSON_OBJECT_MAPPER"]);

    const spring = candidate(comparison, "SPRING_JSON");
    expect(spring).toMatchObject({ baseline: "KOTLINX_JSON", verdict: "worse", evidence: "strong" });
    expect(spring.mannWhitney!.u).toBe(24);
    expect(spring.pAdjusted).toBeCloseTo((4 / SEED_COUNT) * 2, 10);
    expect(spring.change.ratio).toBeCloseTo(3.019 / 2.887, 10);
    expect(spring.change.percent).toBeCloseTo(4.572, 3);

    // JACKSON vs KOTLINX: U = 17, two-sided p = 2·53/252.
    const jackson = candidate(comparison, "JACKSON_OBJECT_MAPPER");
    expect(jackson.verdict).toBe("no_change");
    expect(jackson.mannWhitney!.u).toBe(17);
    expect(jackson.pAdjusted).toBeCloseTo(106 / SEED_COUNT, 10);
    expect(jackson.change.ratio).toBeCloseTo(2.919 / 2.887, 10);

    expect(verdicts(body).send_time_ms).toEqual({ SPRING_JSON: "worse", JACKSON_OBJECT_MAPPER: "no_change" });
  });

  it("finds the experiment by id as well as by slug", async () => {
    const bySlug = await getComparison(slug, { key: ctx.key });
    const byId = await getComparison(experimentId, { key: ctx.key });
    expect(byId.status, JSON.stringify(byId.body)).toBe(200);
    expect(byId.body).toEqual(bySlug.body);
  });

  it("the tRPC procedure experiment.comparison returns the same verdicts", async () => {
    // A viewer, the weakest role, reads the same comparison over tRPC.
    const viewer = await signedInUser(db, "viewer");
    await addMember(db, ctx.project.id, viewer.id, "viewer");
    const caller = viewer.caller;
    const viaTrpc = await caller.experiment.comparison({ projectSlug: ctx.slug, experimentSlug: slug });
    const viaRest = await getComparison(slug, { key: ctx.key });
    expect(verdicts(viaTrpc)).toEqual({
      send_time_ms: { JACKSON_OBJECT_MAPPER: "no_change", KOTLINX_JSON: "better" },
      message_size_bytes: { JACKSON_OBJECT_MAPPER: "worse", KOTLINX_JSON: "worse" },
    });
    expect(verdicts(viaTrpc)).toEqual(verdicts(viaRest.body));
    // The same document either way (REST's JSON round trip changes nothing: every number is finite).
    expect(JSON.parse(JSON.stringify(viaTrpc))).toEqual(viaRest.body);

    const flipped = await caller.experiment.comparison({ projectSlug: ctx.slug, experimentSlug: slug, baseline: "KOTLINX_JSON" });
    expect(verdicts(flipped).send_time_ms).toEqual({ SPRING_JSON: "worse", JACKSON_OBJECT_MAPPER: "no_change" });
  });

  it("an unknown baseline is refused with 422, naming the variants", async () => {
    const { status, body } = await getComparison<ErrorBody>(slug, { key: ctx.key, baseline: "GSON" });
    expect(status, JSON.stringify(body)).toBe(422);
    expect(body.error.code).toBe("UNPROCESSABLE");
    expect(body.error.message).toContain('"GSON"');
    for (const name of KAFKA_VARIANTS) expect(body.error.message).toContain(`"${name}"`);
    expect(body.error.details?.fields.map((f) => f.path.join("."))).toEqual(["baseline"]);
  });

  it("an empty baseline parameter is bad input", async () => {
    const { status, body } = await getComparison<ErrorBody>(slug, { key: ctx.key, baseline: "" });
    expect(status, JSON.stringify(body)).toBe(400);
    expect(body.error.details?.fields.map((f) => f.path.join("."))).toEqual(["baseline"]);
  });

  it("another project's key does not see the experiment (404, not 403), by slug or by id", async () => {
    const other = await newProject();
    for (const ref of [slug, experimentId]) {
      const { status, body } = await getComparison<ErrorBody>(ref, { key: other.key });
      expect(status, JSON.stringify(body)).toBe(404);
      expect(body.error.code).toBe("NOT_FOUND");
    }
  });

  it("refuses a request without an API key (401) or with an unknown one", async () => {
    const missing = await getComparison<ErrorBody>(slug, { key: null });
    expect(missing.status).toBe(401);
    expect(missing.body.error.code).toBe("UNAUTHORIZED");
    expect(missing.headers.get("www-authenticate")).toMatch(/^Bearer/);
    const unknown = await getComparison<ErrorBody>(slug, { key: "vs_not-a-real-key" });
    expect(unknown.status).toBe(401);
  });

  it("an unknown experiment is 404", async () => {
    const { status, body } = await getComparison<ErrorBody>("no-such-experiment", { key: ctx.key });
    expect(status).toBe(404);
    expect(body.error.message).toContain("no-such-experiment");
  });
});

// ---------------------------------------------------------------------------------------------
// Too few runs, a single run per variant, merged percentiles
// ---------------------------------------------------------------------------------------------

describe("GET /api/v1/experiments/{slugOrId}/comparison — run counts and samples", () => {
  let ctx: Awaited<ReturnType<typeof newProject>>;
  beforeAll(async () => {
    ctx = await newProject();
  });

  it("3 runs per variant: insufficient data, and the reason says how many runs are needed", async () => {
    const runs = [0, 1, 2].flatMap((i) =>
      KAFKA_VARIANTS.map((variant) => ({
        variant,
        metrics: [{ key: "send_time_ms", unit: "ms", direction: "lower_is_better", summary: { n: MESSAGES, mean: SEND_TIME_MS[variant][i] } }],
      })),
    );
    await uploadStored(ctx.key, { experiment: "three-runs", create: true, runs });
    const { status, body } = await getComparison("three-runs", { key: ctx.key });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.variants.map((v) => v.runs)).toEqual([3, 3, 3]);
    const comparison = comparisonOf(body, "send_time_ms");
    for (const c of comparison.comparisons) {
      expect(c.verdict).toBe("insufficient_data");
      expect(c.evidence).toBeNull();
      expect(c.minReplicates).toBe(5);
      // Two candidates: Holm's first step tests at α/2, which 4 vs 4 cannot reach (2/70 > 0.025).
      expect(c.reason).toMatch(/needs ≥ 5 runs per variant \(has 3 and 3\)/);
      expect(c.reason).toMatch(/Holm/);
    }
    // The statistics are still reported.
    expect(comparison.comparisons[0]?.change.ratio).not.toBeNull();
  });

  it("1 run per variant with raw samples: a weak-evidence comparison of the within-run samples", async () => {
    const base = latencies(200, 11);
    const slower = latencies(200, 12).map((x) => x * 1.3);
    const same = latencies(200, 13);
    await uploadStored(ctx.key, {
      experiment: "single-run",
      create: true,
      runs: [
        { variant: "plain", metrics: [{ key: "latency_ms", unit: "ms", direction: "lower_is_better", samples: base }] },
        { variant: "slower", metrics: [{ key: "latency_ms", unit: "ms", direction: "lower_is_better", samples: slower }] },
        { variant: "same", metrics: [{ key: "latency_ms", unit: "ms", direction: "lower_is_better", samples: same }] },
      ],
    });
    const { status, body } = await getComparison("single-run", { key: ctx.key });
    expect(status, JSON.stringify(body)).toBe(200);
    const comparison = comparisonOf(body, "latency_ms");

    const worse = candidate(comparison, "slower");
    expect(worse).toMatchObject({ nBaseline: 1, nCandidate: 1, evidence: "weak", verdict: "worse" });
    expect(worse.weak).toMatchObject({ baselineSamples: 200, candidateSamples: 200, baselineSamplesUsed: 200, candidateSamplesUsed: 200 });
    expect(worse.weak?.note).toMatch(/samples within a run are not independent/);
    expect(worse.reason).toMatch(/^weak evidence, one run per variant: samples within a run are not independent; /);
    expect(worse.mannWhitney?.method).toBe("asymptotic");
    expect(worse.change.ratio).toBeGreaterThan(1.15);
    expect(worse.change.ratio).toBeLessThan(1.45);

    const same_ = candidate(comparison, "same");
    expect(same_.evidence).toBe("weak");
    expect(same_.verdict).toBe("no_change");
    expect(same_.reason).toMatch(/^weak evidence, /);

    // One run per variant: no sd; the merged histogram still gives the within-run percentiles.
    const plain = stats(comparison, "plain");
    expect(plain.sd).toBeNull();
    expect(plain.percentiles?.count).toBe(200);
  });

  it("a metric only one variant has: that variant's own figures, nothing tested, and the reason", async () => {
    // "base" (the baseline, created first) has only cpu; "fast" has only latency.
    const runs = [0, 1, 2].flatMap((i) => [
      { variant: "base", metrics: [{ key: "cpu", unit: "%", direction: "lower_is_better", summary: { n: 1, mean: 40 + i } }] },
      { variant: "fast", metrics: [{ key: "latency_ms", unit: "ms", direction: "lower_is_better", summary: { n: 100, mean: [12, 10, 11][i]! } }] },
    ]);
    await uploadStored(ctx.key, { experiment: "one-sided", create: true, runs });
    const { status, body } = await getComparison("one-sided", { key: ctx.key });
    expect(status, JSON.stringify(body)).toBe(200);

    const latency = metricOf(body, "latency_ms");
    expect(latency.reason).toBe('the baseline "base" has no runs with this metric');
    expect(comparisonOf(body, "latency_ms").comparisons).toEqual([]);
    expect(comparisonOf(body, "latency_ms").variants.map((v) => v.variant)).toEqual(["fast"]);
    expect(stats(comparisonOf(body, "latency_ms"), "fast")).toMatchObject({ isBaseline: false, n: 3, median: 11, mean: 11, sd: 1, min: 10, max: 12 });

    const cpu = metricOf(body, "cpu");
    expect(cpu.reason).toBe("no other variant has runs with this metric");
    expect(comparisonOf(body, "cpu").comparisons).toEqual([]);
    expect(stats(comparisonOf(body, "cpu"), "base")).toMatchObject({ isBaseline: true, n: 3, median: 41, min: 40, max: 42 });
    expect(comparisonOf(body, "cpu").ranking.map((r) => r.variant)).toEqual(["base"]);
  });

  it("merges the runs' histograms into percentiles in the metric's unit", async () => {
    const perVariant = { a: [] as number[], b: [] as number[] };
    const runs = [];
    for (let i = 0; i < 5; i++) {
      for (const [variant, median] of [
        ["a", 12],
        ["b", 15],
      ] as const) {
        const samples = latencies(2000, 100 + i * 2 + (variant === "a" ? 0 : 1), median);
        perVariant[variant].push(...samples);
        runs.push({ variant, metrics: [{ key: "latency_ms", unit: "ms", direction: "lower_is_better", aggregation: "median", samples }] });
      }
    }
    // Two uploads: the second must reuse the first's histogram scale for the runs to merge.
    await uploadStored(ctx.key, { experiment: "histograms", create: true, runs: runs.slice(0, 4) });
    await uploadStored(ctx.key, { experiment: "histograms", runs: runs.slice(4) });

    const { status, body } = await getComparison("histograms", { key: ctx.key });
    expect(status, JSON.stringify(body)).toBe(200);
    const comparison = comparisonOf(body, "latency_ms");
    expect(metricOf(body, "latency_ms").aggregation).toBe("median");
    for (const variant of ["a", "b"] as const) {
      const pooled = perVariant[variant];
      const merged = stats(comparison, variant).percentiles;
      expect(merged, `${variant} has merged percentiles`).not.toBeNull();
      expect(merged!.count).toBe(10_000);
      for (const [key, p] of [
        ["p50", 50],
        ["p90", 90],
        ["p99", 99],
      ] as const) {
        const exact = exactPercentile(pooled, p);
        expect(relDiff(merged![key], exact), `${variant} ${key}: merged ${merged![key]} vs pooled ${exact}`).toBeLessThan(0.002);
      }
      expect(relDiff(merged!.mean, pooled.reduce((s, x) => s + x, 0) / pooled.length)).toBeLessThan(0.002);
      expect(relDiff(merged!.min, Math.min(...pooled))).toBeLessThan(0.002);
      expect(relDiff(merged!.max, Math.max(...pooled))).toBeLessThan(0.002);
    }
    // Per-run medians: b's runs (median 15) all lie above a's (median 12).
    const b = candidate(comparison, "b");
    expect(b.verdict).toBe("worse");
    expect(b.mannWhitney?.u).toBe(25);
    expect(b.change.ratio).toBeGreaterThan(1.15);
    expect(b.change.ratio).toBeLessThan(1.35);
  });
});
