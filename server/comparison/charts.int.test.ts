// experiment.results (the comparison and its charts) on a real, migrated PostgreSQL, with runs uploaded the way users upload them
// (POST /api/v1/results): the distribution accounts for every sample, the CDF ends at 1, the bars
// and percentiles are the comparison's own figures, and thinned time series keep their extremes.
// Files share one database: every test works in a project of its own (random slug).
import crypto from "node:crypto";
import * as hdr from "hdr-histogram-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedInUser } from "~/test/signed-in";
import { db } from "~/server/db/client";
import { AppError } from "~/server/core/errors";
import { ZExperimentCharts, type TExperimentCharts } from "~/server/schemas/charts";
import { createApiKey } from "~/server/projects/api-keys";
import { getComparison } from "~/server/comparison/comparison";
import { createProject } from "~/server/projects/projects";
import { getExperimentResults } from "./charts";
import { lognormalSamples, mulberry32 } from "~/server/stats/prng";
import { uploadStored } from "~/test/rest-assertions";

/** The charts part of experiment.results; a charts failure fails the test with its message. */
async function getExperimentCharts(...args: Parameters<typeof getExperimentResults>) {
  const results = await getExperimentResults(...args);
  if (!results.charts) throw new Error(`charts failed: ${results.chartsError}`);
  return results.charts;
}

afterAll(() => db.$disconnect());

const suffix = () => crypto.randomBytes(4).toString("hex");
const owner = await signedInUser(db, "owner");
const caller = owner.caller;

/** Lognormal latencies in ms around `median`, long right tail. */
const latencies = (n: number, median: number, seed: number) => lognormalSamples(n, { median, sigma: 0.5, seed });

async function newProject() {
  const slug = `charts-${suffix()}`;
  await createProject(db, { name: slug, slug, description: "" }, owner.id);
  const key = await createApiKey(db, slug, "charts test");
  return { slug, key: key.secret };
}

const SAMPLES = 400;
const RUNS = 4;
const SERIES = 3600; // an hour at one point per second
const VARIANTS = [
  { name: "plain", median: 12 },
  { name: "gzip", median: 9 },
  { name: "brotli", median: 10 },
];
/** Where the spike and the dip of run 0 of each variant sit (index into the series). */
const SPIKE_AT = 1234;
const DIP_AT = 2718;

function tpsSeries(seed: number, spike: boolean): number[] {
  const random = mulberry32(seed);
  const values = Array.from({ length: SERIES }, () => 1000 + 50 * (random() - 0.5));
  if (spike) {
    values[SPIKE_AT] = 5000;
    values[DIP_AT] = 3;
  }
  return values;
}

describe("experiment.results → charts", () => {
  let project: { slug: string; key: string };
  const experiment = `codecs-${suffix()}`;
  let charts: TExperimentCharts;

  beforeAll(async () => {
    project = await newProject();
    let seed = 1;
    const runs = [];
    // Interleaved A B C A B C…, as a careful user runs them.
    for (let repetition = 0; repetition < RUNS; repetition++) {
      for (const variant of VARIANTS) {
        runs.push({
          variant: variant.name,
          repetition,
          startedAt: "2026-03-01T10:00:00.000Z",
          metrics: [
            { key: "latency", unit: "ms", direction: "lower_is_better", samples: latencies(SAMPLES, variant.median, seed++) },
            {
              key: "tps",
              unit: "req/s",
              direction: "higher_is_better",
              aggregation: "mean",
              timeSeries: { intervalMs: 1000, values: tpsSeries(seed++, repetition === 0) },
            },
          ],
        });
      }
    }
    await uploadStored(project.key, { experiment, create: true, runs });
    charts = ZExperimentCharts.parse((await caller.experiment.results({ projectSlug: project.slug, experimentSlug: experiment })).charts);
  });

  it("lists the variants in the experiment's order with stable colours and the baseline", () => {
    expect(charts.baseline).toBe("plain");
    expect(charts.variants).toEqual([
      { name: "plain", isBaseline: true, color: 0 },
      { name: "gzip", isBaseline: false, color: 1 },
      { name: "brotli", isBaseline: false, color: 2 },
    ]);
    expect(charts.metrics.map((m) => m.key)).toEqual(["latency", "tps"]);
  });

  it("takes bars and percentiles from the comparison, figure for figure", async () => {
    const comparison = await getComparison(db, { projectSlug: project.slug }, experiment);
    const latency = charts.metrics.find((m) => m.key === "latency")!;
    const stats = comparison.metrics.find((m) => m.key === "latency")!.comparison!.variants;
    expect(latency.bars).toEqual(
      stats.map((s) => ({
        variant: s.variant,
        isBaseline: s.isBaseline,
        n: RUNS,
        median: s.median,
        ciLow: s.medianCi!.low,
        ciHigh: s.medianCi!.high,
        ciConfidence: s.medianCi!.confidence,
        mean: s.mean,
        sd: s.sd,
      })),
    );
    // Samples were uploaded, so histograms exist: the comparison's merged figures, not the runs' own.
    expect(latency.percentiles).toEqual(
      stats.map((s) => ({
        variant: s.variant,
        source: "histograms",
        runs: RUNS,
        count: RUNS * SAMPLES,
        p50: s.percentiles!.p50,
        p90: s.percentiles!.p90,
        p95: s.percentiles!.p95,
        p99: s.percentiles!.p99,
        p999: s.percentiles!.p999,
      })),
    );
    // Sanity: the merged percentiles are in ms, near the lognormal's median.
    expect(latency.percentiles[0]!.p50).toBeGreaterThan(10);
    expect(latency.percentiles[0]!.p50).toBeLessThan(14);
  });

  it("gives each run's replicate for the strip plot, whose median is the bar's", () => {
    const latency = charts.metrics.find((m) => m.key === "latency")!;
    expect(latency.runs).toHaveLength(RUNS * VARIANTS.length);
    for (const bar of latency.bars) {
      const values = latency.runs
        .filter((r) => r.variant === bar.variant)
        .map((r) => r.value)
        .sort((a, b) => a - b);
      expect(values.map((_, i) => latency.runs.filter((r) => r.variant === bar.variant)[i]!.repetition)).toEqual([0, 1, 2, 3]);
      expect((values[1]! + values[2]!) / 2).toBeCloseTo(bar.median, 9);
      expect(values.reduce((a, b) => a + b, 0) / values.length).toBeCloseTo(bar.mean, 9);
    }
  });

  it("counts every sample into the distribution; the CDF climbs to exactly 1", () => {
    const { distribution } = charts.metrics.find((m) => m.key === "latency")!;
    expect(distribution).not.toBeNull();
    const binnings = [distribution!.linear, distribution!.log!];
    expect(distribution!.log).not.toBeNull();
    for (const binning of binnings) {
      expect(binning.edges).toHaveLength(41);
      for (let i = 1; i < binning.edges.length; i++) expect(binning.edges[i]!).toBeGreaterThan(binning.edges[i - 1]!);
      expect(binning.variants.map((v) => v.variant)).toEqual(["plain", "gzip", "brotli"]);
      for (const variant of binning.variants) {
        expect(variant.total).toBe(RUNS * SAMPLES);
        expect(variant.counts.reduce((a, b) => a + b, 0)).toBe(RUNS * SAMPLES);
        expect(variant.cumulative).toHaveLength(40);
        expect(variant.shares.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
        expect(variant.shares[7]).toBe(variant.counts[7]! / variant.total);
        expect(variant.cumulative.at(-1)).toBe(1);
        for (let i = 1; i < variant.cumulative.length; i++) expect(variant.cumulative[i]!).toBeGreaterThanOrEqual(variant.cumulative[i - 1]!);
      }
    }
    // Log-spaced edges: a constant ratio between neighbours.
    const edges = distribution!.log!.edges;
    expect(edges[2]! / edges[1]!).toBeCloseTo(edges[11]! / edges[10]!, 9);
  });

  it("thins an hour of per-second points to at most 600 per run and keeps the spike and the dip", () => {
    const tps = charts.metrics.find((m) => m.key === "tps")!;
    expect(tps.timeSeries).toHaveLength(RUNS * VARIANTS.length);
    expect(tps.distribution).toBeNull();
    expect(tps.percentiles).toEqual([]);
    for (const run of tps.timeSeries) {
      expect(run.storedPoints).toBe(SERIES);
      expect(run.points.length).toBeLessThanOrEqual(600);
      expect(run.points.length).toBeGreaterThan(300);
      for (let i = 1; i < run.points.length; i++) expect(run.points[i]!.tMs).toBeGreaterThan(run.points[i - 1]!.tMs);
      if (run.repetition === 0) {
        expect(run.points).toContainEqual({ tMs: SPIKE_AT * 1000, value: 5000 });
        expect(run.points).toContainEqual({ tMs: DIP_AT * 1000, value: 3 });
      }
    }
    // The first and last second are the first and last points (a slice's extremes, or the series' ends).
    const values = tps.timeSeries[0]!.points.map((p) => p.value);
    expect(Math.max(...values)).toBe(5000);
    expect(Math.min(...values)).toBe(3);
  });

  it("follows the chosen baseline and refuses an unknown one", async () => {
    const againstGzip = await getExperimentCharts(db, { projectSlug: project.slug }, experiment, "gzip");
    expect(againstGzip.baseline).toBe("gzip");
    expect(againstGzip.variants.filter((v) => v.isBaseline).map((v) => v.name)).toEqual(["gzip"]);
    expect(againstGzip.variants.map((v) => v.color)).toEqual([0, 1, 2]);
    expect(againstGzip.metrics[0]!.bars.filter((b) => b.isBaseline).map((b) => b.variant)).toEqual(["gzip"]);
    await expect(getExperimentCharts(db, { projectSlug: project.slug }, experiment, "nope")).rejects.toMatchObject({ code: "UNPROCESSABLE" });
    await expect(getExperimentCharts(db, { projectSlug: project.slug }, "no-such-experiment")).rejects.toBeInstanceOf(AppError);
  });
});

describe("experiment.results → charts with partial data", () => {
  it("draws bars when only one variant has runs (the comparison gives its figures, tests nothing)", async () => {
    const { slug, key } = await newProject();
    const runs = [5, 6, 7, 8, 9].map((base, repetition) => ({
      variant: "solo",
      repetition,
      metrics: [{ key: "size", unit: "B", direction: "lower_is_better", summary: { n: 1, mean: base * 100 } }],
    }));
    await uploadStored(key, { experiment: "solo", create: true, runs });
    const comparison = await getComparison(db, { projectSlug: slug }, "solo");
    expect(comparison.metrics[0]!.comparison?.comparisons).toEqual([]);
    expect(comparison.metrics[0]!.reason).toBe("no other variant has runs with this metric");
    const charts = await getExperimentCharts(db, { projectSlug: slug }, "solo");
    expect(charts.metrics[0]!.bars).toMatchObject([{ variant: "solo", isBaseline: true, n: 5, median: 700, mean: 700 }]);
    expect(charts.metrics[0]!.bars[0]!.sd).toBeCloseTo(Math.sqrt(25_000), 9);
    expect(charts.metrics[0]!.runs.map((r) => r.value)).toEqual([500, 600, 700, 800, 900]);
    // Summaries without percentiles and no histogram: neither percentiles nor a distribution.
    expect(charts.metrics[0]!.percentiles).toEqual([]);
    expect(charts.metrics[0]!.distribution).toBeNull();
  });

  it("takes percentiles from summaries that print them (wrk, k6): per level the median across runs, none for a level no run has", async () => {
    const { slug, key } = await newProject();
    // p50 / p90 / p99 per run as a load tool prints them; no samples, no histogram.
    const printed = {
      http: [
        { p50: 2, p90: 4, p99: 9 },
        { p50: 2.5, p90: 3.5, p99: 7 },
        { p50: 1.5, p90: 5, p99: 8 },
      ],
      grpc: [
        { p50: 6, p90: 11, p99: 15 },
        { p50: 7, p90: 10, p99: 19 },
        { p50: 5, p90: 12, p99: 14 },
      ],
    };
    const runs = Object.entries(printed).flatMap(([variant, perRun]) =>
      perRun.map((p, repetition) => ({
        variant,
        repetition,
        metrics: [{ key: "latency", unit: "ms", direction: "lower_is_better", summary: { n: 1000, mean: p.p50 * 1.1, ...p } }],
      })),
    );
    await uploadStored(key, { experiment: "printed", create: true, runs });
    const charts = ZExperimentCharts.parse((await caller.experiment.results({ projectSlug: slug, experimentSlug: "printed" })).charts);
    const latency = charts.metrics[0]!;
    expect(latency.percentiles).toEqual([
      { variant: "http", source: "run summaries", runs: 3, count: null, p50: 2, p90: 4, p95: null, p99: 8, p999: null },
      { variant: "grpc", source: "run summaries", runs: 3, count: null, p50: 6, p90: 11, p95: null, p99: 15, p999: null },
    ]);
    // Still no distribution: that needs the samples' shape, which a summary does not have.
    expect(latency.distribution).toBeNull();
  });

  it("merges histograms where a variant has them and falls back to run summaries only where it has none", async () => {
    const { slug, key } = await newProject();
    const runs = [0, 1, 2].flatMap((repetition) => [
      { variant: "sampled", repetition, metrics: [{ key: "t", unit: "ms", direction: "lower_is_better", samples: latencies(200, 10, 100 + repetition) }] },
      { variant: "printed", repetition, metrics: [{ key: "t", summary: { n: 500, mean: 12, p50: 11 + repetition, p99: 40 } }] },
    ]);
    await uploadStored(key, { experiment: "both", create: true, runs });
    const comparison = await getComparison(db, { projectSlug: slug }, "both");
    const merged = comparison.metrics[0]!.comparison!.variants.find((v) => v.variant === "sampled")!.percentiles!;
    const { percentiles } = (await getExperimentCharts(db, { projectSlug: slug }, "both")).metrics[0]!;
    expect(percentiles).toEqual([
      { variant: "sampled", source: "histograms", runs: 3, count: 600, p50: merged.p50, p90: merged.p90, p95: merged.p95, p99: merged.p99, p999: merged.p999 },
      { variant: "printed", source: "run summaries", runs: 3, count: null, p50: 12, p90: null, p95: null, p99: 40, p999: null },
    ]);
  });

  it("leaves out a variant stored without histograms and says so; merges uploads with different histogram scales", async () => {
    const { slug, key } = await newProject();
    // Samples recorded by Versus (it picks a scale for 1.1 ms in seconds), then a histogram an
    // agent recorded with a scale of its own: a variant whose runs do not share a scale.
    await uploadStored(key, {
      experiment: "mixed",
      create: true,
      runs: [{ variant: "hdr", metrics: [{ key: "t", unit: "s", direction: "lower_is_better", samples: [0.0011, 0.0012, 0.0013] }] }],
    });
    const agentHistogram = hdr.build();
    for (const value of [150, 160, 170, 180]) agentHistogram.recordValue(value * 10);
    const encoded = hdr.encodeIntoCompressedBase64(agentHistogram);
    await uploadStored(key, { experiment: "mixed", runs: [{ variant: "hdr", metrics: [{ key: "t", histogram: encoded, histogramScale: 10 }] }] });
    await uploadStored(key, { experiment: "mixed", create: true, runs: [{ variant: "summary", metrics: [{ key: "t", summary: { n: 10, mean: 2 } }] }] });
    const scales = await db.runMetricResult.findMany({
      where: { run: { experiment: { slug: "mixed", project: { slug } } }, histogram: { not: null } },
      select: { histogramScale: true },
    });
    expect(new Set(scales.map((s) => s.histogramScale)).size).toBe(2);

    const { distribution } = (await getExperimentCharts(db, { projectSlug: slug }, "mixed")).metrics[0]!;
    expect(distribution!.notes).toEqual(["summary: runs stored summaries only"]);
    expect(distribution!.linear.variants.map((v) => v.variant)).toEqual(["hdr"]);
    expect(distribution!.log!.variants[0]!.counts.reduce((a, b) => a + b, 0)).toBe(7);
    expect(distribution!.log!.variants[0]!.total).toBe(7);
    // Both ends in seconds: the smallest and largest sample, within the histograms' 0.1 %.
    expect(distribution!.log!.edges[0]!).toBeCloseTo(0.0011, 5);
    expect(distribution!.log!.edges.at(-1)! / 180).toBeCloseTo(1, 2);
    // Six decades: the log scale is the one to look at.
    expect(distribution!.suggestedScale).toBe("log");
    // The first log bucket holds the three small samples, the top buckets the four large ones.
    const counts = distribution!.log!.variants[0]!.counts;
    expect(counts.slice(0, 5).reduce((a, b) => a + b, 0)).toBe(3);
    expect(counts.slice(-5).reduce((a, b) => a + b, 0)).toBe(4);
  });
});
