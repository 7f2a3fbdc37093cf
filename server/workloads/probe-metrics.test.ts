// The probe metrics catalog and the experiment check that counts probe metrics as reported.
import { describe, expect, it } from "vitest";
import { ZProbe } from "../schemas/probe";
import { probeMetricCatalog, probeMetrics } from "./probe-metrics";
import { workloadFitIssues, type WorkloadOffer } from "./workload-fit";

const httpOffer: WorkloadOffer = {
  agent: { name: "go-1", kind: "go" },
  settingsSchema: {},
  metrics: [{ key: "latency", unit: "ms", direction: "lower_is_better", aggregation: "p99", description: "" }],
};

describe("probeMetrics", () => {
  it("gives a prometheus probe's presets' metrics with its name as prefix, then its custom series", () => {
    const probe = ZProbe.parse({
      name: "app-1",
      kind: "prometheus",
      url: "http://127.0.0.1:8081/metrics",
      presets: ["process", "jvm"],
      series: [
        { key: "requests", metric: "http_requests_total", labels: { status: "200" }, aggregation: "rate", unit: "req/s", direction: "higher_is_better" },
      ],
    });
    expect(probeMetrics(probe).map((metric) => `${metric.key} ${metric.unit} ${metric.aggregation}`)).toEqual([
      "app-1.cpu_percent % mean",
      "app-1.cpu_percent_max % max",
      "app-1.rss B mean",
      "app-1.rss_peak B max",
      "app-1.heap_used B mean",
      "app-1.heap_used_peak B max",
      "app-1.gc_count count sum",
      "app-1.gc_time ms sum",
      "app-1.threads_live count mean",
      "app-1.requests req/s mean",
    ]);
    expect(probeMetrics(probe).at(-1)).toMatchObject({ direction: "higher_is_better", description: 'per-second rate of http_requests_total{status="200"}' });
  });

  it("gives a process probe CPU, RSS and threads", () => {
    const probe = ZProbe.parse({ name: "db", kind: "process", match: { name: "postgres" } });
    expect(probeMetrics(probe).map((metric) => metric.key)).toEqual(["db.cpu_percent", "db.cpu_percent_max", "db.rss", "db.rss_peak", "db.threads"]);
  });

  it("has one entry per suffix, each yielded by something", () => {
    expect(new Set(probeMetricCatalog.map((spec) => spec.suffix)).size).toBe(probeMetricCatalog.length);
    for (const spec of probeMetricCatalog) expect(spec.from.length).toBeGreaterThan(0);
  });
});

describe("workloadFitIssues with probes", () => {
  const probes = [ZProbe.parse({ name: "app-1", kind: "prometheus", url: "http://127.0.0.1:8081/metrics", presets: ["process"] })];
  const experiment = (metrics: string[], withProbes = probes) => ({
    variants: [
      { name: "one", config: { workload: "http", settings: {}, probes: withProbes } },
      { name: "two", config: { workload: "http", settings: {} } },
    ],
    metrics: metrics.map((key) => ({ key })),
  });

  it("counts a variant's probe metrics as reported", () => {
    expect(workloadFitIssues(experiment(["latency", "app-1.cpu_percent", "app-1.rss_peak"]), () => [httpOffer])).toEqual([]);
  });

  it("still refuses a metric no workload nor probe reports, and a probe metric its presets do not give", () => {
    expect(workloadFitIssues(experiment(["app-1.heap_used", "app-2.cpu_percent"]), () => [httpOffer])).toEqual([
      { path: ["metrics", 0, "key"], message: expect.stringContaining('never reports "app-1.heap_used"') },
      { path: ["metrics", 1, "key"], message: expect.stringContaining('never reports "app-2.cpu_percent"') },
    ]);
  });

  it("refuses a custom series whose key a preset of its probe already reports", () => {
    const clashing = [
      ZProbe.parse({
        name: "app-1",
        kind: "prometheus",
        url: "http://127.0.0.1:8081/metrics",
        series: [{ key: "rss", metric: "my_rss", aggregation: "max", unit: "B", direction: "lower_is_better" }],
      }),
    ];
    expect(workloadFitIssues(experiment(["latency"], clashing), () => [httpOffer])).toEqual([
      {
        path: ["variants", 0, "config", "probes", 0, "series", 0, "key"],
        message: 'key: "app-1.rss" is already reported by this probe\'s presets; choose another key',
      },
    ]);
  });
});
