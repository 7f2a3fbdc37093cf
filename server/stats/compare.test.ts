import { describe, expect, it } from "vitest";
import { AppError } from "~/server/core/errors";
import { compareMetric, describeMetric, type VariantData } from "./compare";
import { close, fixtureJson, scipy } from "./fixtures/load";
import { mulberry32 } from "./prng";
import { ZMetricComparison } from "./schemas";
import { WEAK_REASON } from "./weak-evidence";

const sendTime = { key: "send_time_ms", unit: "ms", direction: "lower_is_better" as const };

function normalSamples(seed: number, n: number, mean: number, sd: number): number[] {
  const random = mulberry32(seed);
  return Array.from({ length: n }, () => {
    const u = 1 - random();
    const v = random();
    return mean + sd * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  });
}

describe("docs/examples.md case 5: Kafka serializers, 5 runs each, send time (lower is better)", () => {
  const ref = scipy();
  const values = ref.serializer.values as Record<"SPRING_JSON" | "JACKSON" | "KOTLINX", number[]>;
  const variants: VariantData[] = [
    { name: "SPRING_JSON", isBaseline: true, replicates: values.SPRING_JSON },
    { name: "JACKSON", isBaseline: false, replicates: values.JACKSON },
    { name: "KOTLINX", isBaseline: false, replicates: values.KOTLINX },
  ];
  const result = compareMetric(sendTime, variants);
  const byName = (name: string) => result.comparisons.find((c) => c.candidate === name);
  const caseP = (name: string) => ref.cases.find((c) => c.name === name)?.mannwhitneyu.p as number;

  it("shows the sample sd (n − 1) and keeps the population sd the write-up published", () => {
    const sd = result.variants.map((v) => Number(v.sd?.toFixed(3)));
    const pop = result.variants.map((v) => Number(v.populationSd?.toFixed(3)));
    expect(sd).toEqual([0.204, 0.153, 0.045]);
    expect(pop).toEqual([0.182, 0.137, 0.04]);
    expect(result.variants.every((v) => v.sdKind === "sample")).toBe(true);
    expect(result.variants.map((v) => Number(v.mean?.toFixed(3)))).toEqual([3.078, 2.959, 2.89]);
  });

  it("gives scipy's p-values and statsmodels' Holm adjustment across the two candidates", () => {
    expect(close(byName("JACKSON")?.mannWhitney?.p as number, caseP("serializer_jackson_vs_spring"))).toBe(true);
    expect(close(byName("KOTLINX")?.mannWhitney?.p as number, caseP("serializer_kotlinx_vs_spring"))).toBe(true);
    expect(close(byName("JACKSON")?.pAdjusted as number, ref.serializer.holm_vs_spring.JACKSON as number)).toBe(true);
    expect(close(byName("KOTLINX")?.pAdjusted as number, ref.serializer.holm_vs_spring.KOTLINX as number)).toBe(true);
    expect(byName("KOTLINX")?.adjustment).toBe("holm");
  });

  it("says what five runs support: KOTLINX is faster than SPRING_JSON, JACKSON is not distinguishable", () => {
    // Exact U-test: KOTLINX beats SPRING_JSON in 24 of 25 pairs, p = 4/252 = 0.016, Holm 0.032.
    expect(byName("KOTLINX")).toMatchObject({ verdict: "better", evidence: "strong" });
    expect(byName("KOTLINX")?.change.percent).toBeCloseTo((2.887 / 3.019 - 1) * 100, 10);
    expect(byName("KOTLINX")?.change.ciIncludesNoChange).toBe(false);
    // The means suggest JACKSON is 3.9% faster; with these spreads p = 0.22.
    expect(byName("JACKSON")).toMatchObject({ verdict: "no_change", evidence: "strong" });
    expect(byName("JACKSON")?.reason).toMatch(/no significant difference/);
    expect(byName("JACKSON")?.change.ciIncludesNoChange).toBe(true);
  });

  it("does not support 'KOTLINX is fastest': against JACKSON it is no_change", () => {
    const vsJackson = compareMetric(sendTime, [
      { name: "JACKSON", isBaseline: true, replicates: values.JACKSON },
      { name: "KOTLINX", isBaseline: false, replicates: values.KOTLINX },
    ]);
    expect(vsJackson.comparisons[0]?.verdict).toBe("no_change");
    expect(close(vsJackson.comparisons[0]?.mannWhitney?.p as number, caseP("serializer_kotlinx_vs_jackson"))).toBe(true);
    // The medians' intervals all overlap, so the ranking does not separate them either.
    expect(result.ranking.map((r) => r.variant)).toEqual(["KOTLINX", "JACKSON", "SPRING_JSON"]);
    expect(result.ranking.map((r) => r.rank)).toEqual([1, 1, 1]);
  });

  it("reports Welch's t-test like scipy (and it finds nothing significant)", () => {
    const welch = ref.cases.find((c) => c.name === "serializer_kotlinx_vs_spring")?.ttest_welch;
    expect(close(byName("KOTLINX")?.welch.p as number, welch?.p as number)).toBe(true);
    expect(byName("KOTLINX")?.welch.p).toBeGreaterThan(0.05);
  });

  it("matches R's Hodges–Lehmann interval for the ratio", () => {
    const r = fixtureJson<{ cases: { name: string; low: number; high: number }[] }>("r/hodges_lehmann.json").cases.find(
      (c) => c.name === "serializer_kotlinx_vs_spring",
    );
    expect(byName("KOTLINX")?.change.ratioCi?.low).toBeCloseTo(Math.exp(r?.low as number), 12);
    expect(byName("KOTLINX")?.change.ratioCi?.high).toBeCloseTo(Math.exp(r?.high as number), 12);
  });

  it("produces plain JSON that the response schema accepts", () => {
    expect(JSON.parse(JSON.stringify(result))).toEqual(result);
    expect(() => ZMetricComparison.parse(result)).not.toThrow();
  });
});

describe("insufficient data", () => {
  it("3 runs per side at α = 0.05: the U-test cannot reach significance (best p = 0.1)", () => {
    const r = compareMetric(sendTime, [
      { name: "a", isBaseline: true, replicates: [10, 11, 12] },
      { name: "b", isBaseline: false, replicates: [1, 2, 3] },
    ]);
    expect(r.comparisons[0]).toMatchObject({ verdict: "insufficient_data", evidence: null, minReplicates: 4 });
    expect(r.comparisons[0]?.reason).toMatch(/^needs ≥ 4 runs per variant \(has 3 and 3\)/);
    expect(r.comparisons[0]?.mannWhitney?.p).toBeCloseTo(0.1, 12);
  });

  it("computes the minimum from α, not a constant", () => {
    const variants: VariantData[] = [
      { name: "a", isBaseline: true, replicates: [10, 11, 12] },
      { name: "b", isBaseline: false, replicates: [1, 2, 3] },
    ];
    expect(compareMetric(sendTime, variants, { alpha: 0.1 }).comparisons[0]).toMatchObject({ verdict: "better", minReplicates: 3 });
    expect(compareMetric(sendTime, variants, { alpha: 0.01 }).comparisons[0]).toMatchObject({ verdict: "insufficient_data", minReplicates: 5 });
  });

  it("names both counts when the sides differ", () => {
    const r = compareMetric(sendTime, [
      { name: "a", isBaseline: true, replicates: [10, 11, 12] },
      { name: "b", isBaseline: false, replicates: [1, 2, 3, 4, 5] },
    ]);
    expect(r.comparisons[0]?.reason).toMatch(/^needs ≥ 4 runs per variant \(has 3 and 5\)/);
  });

  it("a CI gate's few runs against a pooled window: the rule is what the two sizes can reach", () => {
    const window = [10, 10.2, 9.9, 10.1, 10.3, 9.8, 10, 10.2, 10.1, 9.9, 10, 10.1, 9.95, 10.05, 10.15];
    const variants = [
      { name: "window", isBaseline: true, replicates: window },
      { name: "commit", isBaseline: false, replicates: [11, 11.2, 10.9] },
    ];
    // Per variant (an experiment's rule) 3 runs are too few; 3 against 15 can reach p = 2 / C(18, 3).
    expect(compareMetric(sendTime, variants).comparisons[0]?.verdict).toBe("insufficient_data");
    expect(compareMetric(sendTime, variants, { minimumRuns: "attainable" }).comparisons[0]?.verdict).toBe("worse");
    const tooFew = compareMetric(
      sendTime,
      [
        { name: "window", isBaseline: true, replicates: [10, 10.1] },
        { name: "commit", isBaseline: false, replicates: [11, 11.2] },
      ],
      { minimumRuns: "attainable" },
    );
    expect(tooFew.comparisons[0]).toMatchObject({
      verdict: "insufficient_data",
      reason: "with 2 and 2 runs the U-test's smallest p is 0.333 > α = 0.05: more runs are needed",
    });
  });

  it("a single run without within-run samples", () => {
    const r = compareMetric(sendTime, [
      { name: "a", isBaseline: true, replicates: [10] },
      { name: "b", isBaseline: false, replicates: [9] },
    ]);
    expect(r.comparisons[0]?.verdict).toBe("insufficient_data");
    expect(r.comparisons[0]?.reason).toMatch(/within-run samples would allow a weak comparison/);
    expect(r.variants[0]).toMatchObject({ n: 1, sd: null, cv: null });
  });
});

describe("docs/examples.md case 1: one run per variant (S3 upload, 100 requests each)", () => {
  // Synthetic samples (seeded normal, mulberry32 seeds 11 and 12) with the published means
  // 114.110 ms and 118.091 ms; the run's replicate value is the mean of its samples.
  const plain = normalSamples(11, 100, 114.11, 12);
  const gzip = normalSamples(12, 100, 118.091, 12);
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const result = compareMetric({ key: "upload_latency_ms", unit: "ms", direction: "lower_is_better" }, [
    { name: "Plain", isBaseline: true, replicates: [mean(plain)], withinRunSamples: [plain] },
    { name: "Gzip", isBaseline: false, replicates: [mean(gzip)], withinRunSamples: [gzip] },
  ]);
  const cmp = result.comparisons[0];

  it("compares within-run samples and labels the result weak evidence", () => {
    expect(cmp?.evidence).toBe("weak");
    expect(cmp?.reason).toContain(WEAK_REASON);
    expect(cmp?.weak).toMatchObject({ baselineSamples: 100, candidateSamples: 100, baselineSamplesUsed: 100 });
    expect(cmp?.mannWhitney?.method).toBe("asymptotic");
    expect(["better", "worse", "no_change"]).toContain(cmp?.verdict);
    expect(cmp?.change.ratioCi).not.toBeNull();
    expect(cmp?.welch.reason).toMatch(/within-run samples/);
  });

  it("thins large runs deterministically before sorting anything", () => {
    const big = normalSamples(5, 60_000, 100, 10);
    const big2 = normalSamples(6, 60_000, 101, 10);
    const started = performance.now();
    const r = compareMetric(sendTime, [
      { name: "a", isBaseline: true, replicates: [100], withinRunSamples: [big] },
      { name: "b", isBaseline: false, replicates: [101], withinRunSamples: [big2] },
    ]);
    expect(performance.now() - started).toBeLessThan(3000);
    expect(r.comparisons[0]?.weak).toMatchObject({ baselineSamples: 60_000, baselineSamplesUsed: 10_000, candidateSamplesUsed: 10_000 });
    expect(r.comparisons[0]?.verdict).toBe("worse");
  });
});

describe("several candidates (Holm)", () => {
  const baseline = [10, 11, 12, 13, 14, 15, 16, 17];
  const result = compareMetric(sendTime, [
    { name: "base", isBaseline: true, replicates: baseline },
    { name: "far", isBaseline: false, replicates: baseline.map((x) => x - 9) }, // p = 2/12870
    { name: "near", isBaseline: false, replicates: [6.6, 7.6, 8.6, 9.6, 10.6, 12.6, 13.6, 14.6] }, // p = 0.0499
    { name: "same", isBaseline: false, replicates: baseline.map((x) => x + 0.5) },
  ]);
  const [far, near, same] = result.comparisons;

  it("adjusts with Holm's step-down method over the three candidates", () => {
    const raw = [far, near, same].map((c) => c?.mannWhitney?.p as number);
    expect(raw[0]).toBeCloseTo(2 / 12870, 15);
    expect(raw[1]).toBeCloseTo(0.04988344988344988, 14);
    expect(far?.pAdjusted).toBeCloseTo(3 * (raw[0] as number), 15);
    expect(near?.pAdjusted).toBeCloseTo(Math.max(3 * (raw[0] as number), 2 * (raw[1] as number)), 14);
    expect(same?.pAdjusted).toBeCloseTo(Math.max(near?.pAdjusted as number, raw[2] as number), 14);
    expect([far, near, same].every((c) => c?.adjustment === "holm")).toBe(true);
  });

  it("turns a raw p ≤ α into no_change when the correction lifts it above α", () => {
    expect(far?.verdict).toBe("better");
    expect(near?.mannWhitney?.p).toBeLessThan(0.05);
    expect(near?.verdict).toBe("no_change");
    expect(near?.reason).toMatch(/Holm-adjusted over 3 candidates/);
    expect(same?.verdict).toBe("no_change");
  });

  it("needs more runs to resolve three candidates (α/3 at Holm's first step)", () => {
    const four = [1, 2, 3, 4];
    const r = compareMetric(sendTime, [
      { name: "base", isBaseline: true, replicates: [11, 12, 13, 14] },
      { name: "a", isBaseline: false, replicates: four },
      { name: "b", isBaseline: false, replicates: four.map((x) => x + 0.1) },
      { name: "c", isBaseline: false, replicates: four.map((x) => x + 0.2) },
    ]);
    expect(r.comparisons.every((c) => c.verdict === "insufficient_data" && c.minReplicates === 5)).toBe(true);
    expect(r.comparisons[0]?.reason).toMatch(/needs ≥ 5 runs per variant \(has 4 and 4\) to resolve 3 candidates/);
  });
});

describe("ranking: docs/examples.md case 2, four protocols", () => {
  const published = { "HTTP/Binary": 2506.24, "gRPC/Unary": 1186.64, "HTTP/JSON": 514.54, "gRPC/Stream": 210.72 };
  const variants: VariantData[] = Object.entries(published).map(([name, rps], i) => ({
    name,
    isBaseline: name === "gRPC/Unary",
    replicates: normalSamples(100 + i, 6, rps, rps * 0.02),
  }));
  const throughput = compareMetric({ key: "throughput", unit: "req/s", direction: "higher_is_better" }, variants);

  it("orders by median in the metric's better direction", () => {
    expect(throughput.ranking.map((r) => r.variant)).toEqual(["HTTP/Binary", "gRPC/Unary", "HTTP/JSON", "gRPC/Stream"]);
    expect(throughput.ranking.map((r) => r.rank)).toEqual([1, 2, 3, 4]);
    expect(throughput.ranking.every((r) => r.tiedWith.length === 0)).toBe(true);
    const latency = compareMetric(
      { key: "latency", unit: "ms", direction: "lower_is_better" },
      variants.map((v) => ({ ...v, replicates: v.replicates.map((x) => 1000 / x) })),
    );
    expect(latency.ranking.map((r) => r.variant)).toEqual(["HTTP/Binary", "gRPC/Unary", "HTTP/JSON", "gRPC/Stream"]);
  });

  it("judges each candidate against the baseline with Holm's correction", () => {
    expect(throughput.comparisons.map((c) => [c.candidate, c.verdict])).toEqual([
      ["HTTP/Binary", "better"],
      ["HTTP/JSON", "worse"],
      ["gRPC/Stream", "worse"],
    ]);
  });

  it("flags ties where the medians' intervals overlap", () => {
    const r = compareMetric(sendTime, [
      { name: "a", isBaseline: true, replicates: [10, 11, 12, 13, 14, 15] },
      { name: "b", isBaseline: false, replicates: [12, 13, 14, 15, 16, 17] },
      { name: "c", isBaseline: false, replicates: [30, 31, 32, 33, 34, 35] },
    ]);
    expect(r.ranking).toMatchObject([
      { variant: "a", position: 1, rank: 1, tiedWith: ["b"] },
      { variant: "b", position: 2, rank: 1, tiedWith: ["a"] },
      { variant: "c", position: 3, rank: 3, tiedWith: [] },
    ]);
  });
});

describe("A/A noise", () => {
  it("stays near α for runs from one distribution, reproducibly", () => {
    const runs = normalSamples(3, 20, 100, 5);
    const variants: VariantData[] = [
      { name: "a", isBaseline: true, replicates: runs },
      { name: "b", isBaseline: false, replicates: normalSamples(4, 20, 100, 5) },
    ];
    const one = compareMetric(sendTime, variants, { seed: 42 });
    const again = compareMetric(sendTime, variants, { seed: 42 });
    expect(one.noise).toEqual(again.noise);
    const rate = one.noise.falsePositiveRate as number;
    expect(rate).toBeGreaterThanOrEqual(0);
    expect(rate).toBeLessThanOrEqual(0.1);
    expect(one.noise.variants.every((v) => v.splits === 200)).toBe(true);
  });

  it("estimates the exact test's real size for 5 vs 5 halves (8/252 ≈ 0.032)", () => {
    const r = compareMetric(
      sendTime,
      [
        { name: "a", isBaseline: true, replicates: normalSamples(9, 10, 50, 2) },
        { name: "b", isBaseline: false, replicates: normalSamples(10, 10, 50, 2) },
      ],
      { noiseSplits: 2000 },
    );
    expect(Math.abs((r.noise.falsePositiveRate as number) - 8 / 252)).toBeLessThan(0.015);
  });

  it("says when there are not enough runs", () => {
    const r = compareMetric(sendTime, [
      { name: "a", isBaseline: true, replicates: [1, 2, 3, 4, 5] },
      { name: "b", isBaseline: false, replicates: [1, 2, 3, 4, 5] },
    ]);
    expect(r.noise.falsePositiveRate).toBeNull();
    expect(r.noise.reason).toMatch(/not enough runs: an A\/A split needs ≥ 8 runs/);
  });
});

describe("describeMetric: each variant's own figures, nothing to compare against", () => {
  const ref = scipy();
  const values = ref.serializer.values as Record<"SPRING_JSON" | "KOTLINX", number[]>;

  it("gives the one variant the figures compareMetric gives it, and no comparisons", () => {
    const alone = describeMetric(sendTime, [{ name: "SPRING_JSON", isBaseline: true, replicates: values.SPRING_JSON }]);
    const compared = compareMetric(sendTime, [
      { name: "SPRING_JSON", isBaseline: true, replicates: values.SPRING_JSON },
      { name: "KOTLINX", isBaseline: false, replicates: values.KOTLINX },
    ]);
    expect(alone.comparisons).toEqual([]);
    expect(alone.notes).toEqual([]);
    expect(alone.variants).toEqual([compared.variants[0]]);
    expect(alone.variants[0]).toMatchObject({ n: 5, median: 3.019, min: Math.min(...values.SPRING_JSON), max: Math.max(...values.SPRING_JSON) });
    expect(alone.ranking.map((r) => r.variant)).toEqual(["SPRING_JSON"]);
    expect(ZMetricComparison.parse(alone)).toEqual(alone);
  });

  it("describes variants without a baseline among them (the baseline has no runs)", () => {
    const r = describeMetric(sendTime, [
      { name: "JACKSON", isBaseline: false, replicates: [3, 4] },
      { name: "KOTLINX", isBaseline: false, replicates: [2] },
    ]);
    expect(r.variants.map((v) => [v.variant, v.isBaseline, v.n, v.median])).toEqual([
      ["JACKSON", false, 2, 3.5],
      ["KOTLINX", false, 1, 2],
    ]);
    expect(r.comparisons).toEqual([]);
    expect(() =>
      describeMetric(sendTime, [
        { name: "a", isBaseline: true, replicates: [1] },
        { name: "b", isBaseline: true, replicates: [1] },
      ]),
    ).toThrow(/at most one variant can be the baseline/);
  });
});

describe("input checks and histograms", () => {
  it("rejects two baselines, duplicate names and non-finite values", () => {
    const two = () =>
      compareMetric(sendTime, [
        { name: "a", isBaseline: true, replicates: [1] },
        { name: "b", isBaseline: true, replicates: [1] },
      ]);
    expect(two).toThrow(AppError);
    expect(two).toThrow(/exactly one variant must be the baseline/);
    expect(() => compareMetric(sendTime, [{ name: "a", isBaseline: true, replicates: [Number.NaN] }])).toThrow(/non-finite/);
  });

  it("merges the runs' histograms into percentiles per variant", () => {
    const hdr = fixtureJson<{ histograms: string[]; merged: { p99: number } }>("hdr/histograms.json");
    const r = compareMetric(sendTime, [{ name: "a", isBaseline: true, replicates: [1, 2, 3], histograms: hdr.histograms }]);
    expect(r.variants[0]?.percentiles?.p99).toBe(hdr.merged.p99);
    expect(r.comparisons).toEqual([]);
  });

  it("handles a variant without runs", () => {
    const r = compareMetric(sendTime, [
      { name: "a", isBaseline: true, replicates: [1, 2, 3, 4] },
      { name: "b", isBaseline: false, replicates: [] },
    ]);
    expect(r.comparisons[0]).toMatchObject({ verdict: "insufficient_data", mannWhitney: null });
    expect(r.variants[1]).toMatchObject({ n: 0, median: null, notes: ["no runs"] });
    expect(r.ranking[1]).toMatchObject({ variant: "b", rank: null });
    expect(() => ZMetricComparison.parse(r)).not.toThrow();
  });
});
