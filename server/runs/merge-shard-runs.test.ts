import { build, encodeIntoCompressedBase64 } from "hdr-histogram-js";
import { describe, expect, it } from "vitest";
import { mulberry32 } from "../stats/prng";
import { histogramFigures } from "./histogram";
import { mergeShardRuns, type ShardRun } from "./merge-shard-runs";

const SCALE = 1000; // latencies in ms, recorded in µs, as the Go agent does

function encoded(latencies: readonly number[], scale = SCALE): string {
  const histogram = build({ bitBucketSize: 64, autoResize: true, numberOfSignificantValueDigits: 3 });
  for (const latency of latencies) histogram.recordValue(Math.round(latency * scale));
  const text = encodeIntoCompressedBase64(histogram);
  histogram.destroy();
  return text;
}

/** Latencies of one shard: a long-tailed spread around `median` ms, with `stalls` requests of 2 s. */
function latencies(seed: number, count: number, median: number, stalls = 0): number[] {
  const random = mulberry32(seed);
  const values = Array.from({ length: count }, () => median * Math.exp(0.6 * Math.log(1 / (1 - random())) - 0.2));
  for (let i = 0; i < stalls; i++) values[Math.floor(random() * count)] = 2000 + random() * 50;
  return values;
}

/** The nearest-rank percentile of raw values (HdrHistogram's rank). */
function rawPercentile(sorted: readonly number[], percentile: number): number {
  return sorted[Math.max(1, Math.floor((percentile / 100) * sorted.length + 0.5)) - 1] as number;
}

const T0 = Date.parse("2026-11-30T12:00:00.000Z");

function shard(agentName: string, raw: readonly number[], startSkewMs: number, perSecond: number[]): ShardRun {
  const startedAt = new Date(T0 + startSkewMs).toISOString();
  return {
    agentName,
    run: {
      status: "succeeded",
      startedAt,
      finishedAt: new Date(T0 + startSkewMs + perSecond.length * 1000).toISOString(),
      environment: { cores: 2 },
      tags: [],
      metrics: [
        { key: "latency", unit: "ms", direction: "lower_is_better", histogram: encoded(raw), histogramScale: SCALE },
        {
          key: "latency_p99",
          unit: "ms",
          direction: "lower_is_better",
          value: rawPercentile(
            [...raw].sort((a, b) => a - b),
            99,
          ),
        },
        { key: "requests", unit: "count", direction: "higher_is_better", value: raw.length },
        {
          key: "throughput",
          unit: "req/s",
          direction: "higher_is_better",
          value: raw.length / perSecond.length,
          timeSeries: { startedAt, intervalMs: 1000, values: perSecond },
        },
        { key: "throughput_peak", unit: "req/s", direction: "higher_is_better", value: Math.max(...perSecond) },
      ],
    },
  };
}

describe("mergeShardRuns", () => {
  const a = latencies(1, 3000, 4);
  const b = latencies(2, 3000, 5);
  const c = latencies(3, 3000, 4.5, 150); // this agent's requests met a 2 s stall of the target
  const shards = [shard("agent-a", a, 0, [1000, 1000, 1000]), shard("agent-b", b, 20, [900, 1100, 1000]), shard("agent-c", c, 40, [1000, 1000, 1000])];
  const merged = mergeShardRuns(shards);
  const metric = (key: string) => merged.metrics.find((m) => m.key === key);

  it("merges the latency histograms exactly: the percentiles of one histogram of every shard's requests", () => {
    const union = [...a, ...b, ...c];
    const mergedFigures = histogramFigures(metric("latency")?.histogram as string, SCALE);
    const unionFigures = histogramFigures(encoded(union), SCALE);
    expect(mergedFigures).toEqual(unionFigures);
    expect(mergedFigures?.n).toBe(9000);
    // Within HdrHistogram's 3 significant digits of the raw values' own percentiles.
    const sorted = union.sort((x, y) => x - y);
    for (const [key, percentile] of [
      ["p50", 50],
      ["p99", 99],
      ["p999", 99.9],
    ] as const) {
      expect(Math.abs((mergedFigures?.[key] as number) / rawPercentile(sorted, percentile) - 1)).toBeLessThan(0.001);
    }
    // 150 of 9000 requests stalled (1.7 %): the merged p99 shows the stall, though two agents never saw it.
    expect(mergedFigures?.p99).toBeGreaterThan(2000);
    expect(metric("latency_p99")?.value).toBe(mergedFigures?.p99);
  });

  it("sums counts and rates, and per-second series by aligned second", () => {
    expect(metric("requests")?.value).toBe(9000);
    expect(metric("throughput")?.value).toBe(3000);
    expect(metric("throughput")?.timeSeries).toEqual({ startedAt: new Date(T0).toISOString(), intervalMs: 1000, values: [2900, 3100, 3000] });
    // The busiest second of the sum, not the sum of each agent's busiest second (3100, not 3100 + … ).
    expect(metric("throughput_peak")?.value).toBe(3100);
  });

  it("spans the shards' times and names every agent", () => {
    expect(merged.startedAt).toBe(new Date(T0).toISOString());
    expect(merged.finishedAt).toBe(new Date(T0 + 40 + 3000).toISOString());
    expect(merged.sourceDetail).toBe("3 agents: agent-a, agent-b, agent-c");
    expect(merged.environment).toEqual({
      agents: [
        { agent: "agent-a", cores: 2 },
        { agent: "agent-b", cores: 2 },
        { agent: "agent-c", cores: 2 },
      ],
    });
  });

  it("refuses histograms recorded at different scales, naming the agent", () => {
    const odd = shard("agent-b", b, 0, [1]);
    odd.run.metrics[0] = { key: "latency", unit: "ms", direction: "lower_is_better", histogram: encoded(b, 100), histogramScale: 100 };
    expect(() => mergeShardRuns([shards[0] as ShardRun, odd])).toThrow(/agent-b recorded its histogram at scale 100, agent-a at 1000/);
  });

  it("takes a probe's metrics from the one shard that sampled the system under test", () => {
    const sampling = structuredClone(shards[0] as ShardRun);
    sampling.run.metrics.push({ key: "app.cpu_percent", unit: "%", direction: "lower_is_better", value: 40 });
    const result = mergeShardRuns([sampling, shards[1] as ShardRun, shards[2] as ShardRun], ["app"]);
    expect(result.metrics.find((m) => m.key === "app.cpu_percent")).toEqual({ key: "app.cpu_percent", unit: "%", direction: "lower_is_better", value: 40 });
    expect(result.warnings).toBeUndefined();
  });

  it("leaves out, with a warning, a metric not every shard reported or whose figures do not add up", () => {
    const withCpu = structuredClone(shards[0] as ShardRun);
    withCpu.run.metrics.push({ key: "cpu", unit: "%", direction: "lower_is_better", value: 40 });
    withCpu.run.warnings = ["probe gaps"];
    const other = structuredClone(shards[1] as ShardRun);
    other.run.metrics.push({ key: "cpu", unit: "%", direction: "lower_is_better", value: 60 });
    other.run.metrics.splice(2, 1); // no "requests"
    const result = mergeShardRuns([withCpu, other]);
    expect(result.metrics.map((m) => m.key)).toEqual(["latency", "latency_p99", "throughput", "throughput_peak"]);
    expect(result.warnings).toEqual([
      "agent-a: probe gaps",
      'metric "requests" is left out of the merged run: agent-b did not report it',
      'metric "cpu" is left out of the merged run: its figures do not add up across agents (each agent\'s own stays with its shard)',
    ]);
  });
});
