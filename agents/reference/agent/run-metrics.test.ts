// Mapping what a workload recorded onto the metrics a job asks for.
import { describe, expect, it } from "vitest";
import { MemoryRecorder } from "../workloads/recorder";
import type { MetricSpec } from "../workloads/workload";
import { runMetrics, unitFactor } from "./run-metrics";

const specs: MetricSpec[] = [
  { key: "compress_time", unit: "us", direction: "lower_is_better", aggregation: "median", description: "" },
  { key: "payload_bytes", unit: "B", direction: "lower_is_better", aggregation: "mean", description: "" },
];

function recorded() {
  const recorder = new MemoryRecorder();
  recorder.sample("compress_time", 1500);
  recorder.sample("compress_time", 2500);
  recorder.summary("payload_bytes", { n: 2, mean: 2048, sd: 0, min: 2048, max: 2048 });
  return recorder;
}

describe("unitFactor", () => {
  it("converts within a family only", () => {
    expect(unitFactor("us", "ms")).toBeCloseTo(0.001);
    expect(unitFactor("µs", "us")).toBe(1);
    expect(unitFactor("B", "KiB")).toBe(1 / 1024);
    expect(unitFactor("ms", "B")).toBeUndefined();
    expect(unitFactor("req/s", "req/s")).toBe(1);
  });
});

describe("runMetrics", () => {
  it("sends only what the job asks for, in the job's units", () => {
    const result = runMetrics([{ key: "compress_time", unit: "ms" }, { key: "payload_bytes", unit: "KiB" }, { key: "latency" }], specs, recorded());
    expect(result).toEqual({
      metrics: [
        { key: "compress_time", unit: "ms", direction: "lower_is_better", samples: [1.5, 2.5] },
        { key: "payload_bytes", unit: "KiB", direction: "lower_is_better", summary: { n: 2, mean: 2, sd: 0, min: 2, max: 2 } },
      ],
      missing: ["latency"],
    });
  });

  it("sends everything recorded when the job lists no metrics", () => {
    const result = runMetrics([], specs, recorded());
    expect("metrics" in result && result.metrics.map((m) => `${m.key} ${m.unit}`)).toEqual(["compress_time us", "payload_bytes B"]);
  });

  it("sends a metric's value, in the job's unit, beside its samples or alone", () => {
    const recorder = recorded();
    recorder.value("compress_time", 2000);
    recorder.value("rate", 4096);
    const result = runMetrics(
      [
        { key: "compress_time", unit: "ms" },
        { key: "rate", unit: "KiB/s" },
      ],
      [...specs, { key: "rate", unit: "KiB/s", direction: "higher_is_better", aggregation: "mean", description: "" }],
      recorder,
    );
    expect(result).toEqual({
      metrics: [
        { key: "compress_time", unit: "ms", direction: "lower_is_better", samples: [1.5, 2.5], value: 2 },
        { key: "rate", unit: "KiB/s", direction: "higher_is_better", value: 4096 },
      ],
      missing: [],
    });
  });

  it("keeps a unit of another family as recorded (the server then refuses it)", () => {
    const result = runMetrics([{ key: "payload_bytes", unit: "ms" }], specs, recorded());
    expect("metrics" in result && result.metrics[0]).toMatchObject({ key: "payload_bytes", unit: "B", summary: { mean: 2048 } });
  });

  it("explains a job whose metrics the workload does not report", () => {
    expect(runMetrics([{ key: "latency" }], specs, recorded())).toEqual({
      problem: "the workload reports none of the experiment's metrics (latency); it reports compress_time (us), payload_bytes (B)",
    });
  });
});
