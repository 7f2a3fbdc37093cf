// The probe schema shared by the variant form, the experiment procedures and the claimed job:
// what it accepts and fills in, and for every refusal the field path and a message naming the field.
import { describe, expect, it } from "vitest";
import { ZProbe, ZProbes } from "./probe";
import { ZVariantConfig } from "./workload";

function issuesOf(
  schema: { safeParse: (input: unknown) => { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } } },
  input: unknown,
) {
  const result = schema.safeParse(input);
  if (result.success) throw new Error(`expected a refusal of ${JSON.stringify(input)}`);
  return (result.error?.issues ?? []).map((issue) => ({ path: issue.path, message: issue.message }));
}

const prometheus = { name: "app-1", kind: "prometheus", url: "http://127.0.0.1:8081/actuator/prometheus" };

describe("ZProbe", () => {
  it("fills in the defaults of a prometheus probe: process preset, 1 s, not required", () => {
    expect(ZProbe.parse(prometheus)).toEqual({ ...prometheus, presets: ["process"], intervalSeconds: 1, required: false });
  });

  it("takes a process probe matched by name, pid or pattern", () => {
    for (const match of [{ name: "postgres" }, { pid: 1234 }, { pattern: "java .*-jar app\\.jar" }]) {
      expect(ZProbe.parse({ name: "db", kind: "process", match, required: true, intervalSeconds: 2 })).toEqual({
        name: "db",
        kind: "process",
        match,
        required: true,
        intervalSeconds: 2,
      });
    }
  });

  it("refuses a bad name, naming the field", () => {
    expect(issuesOf(ZProbe, { ...prometheus, name: "App 1" })).toEqual([{ path: ["name"], message: expect.stringMatching(/^name: use lowercase letters/) }]);
    expect(issuesOf(ZProbe, { ...prometheus, name: "a".repeat(41) })).toEqual([{ path: ["name"], message: "name must be at most 40 characters" }]);
  });

  it("refuses an unknown kind, listing the valid ones", () => {
    expect(issuesOf(ZProbe, { ...prometheus, kind: "snmp" })).toEqual([{ path: ["kind"], message: "kind must be one of prometheus, process" }]);
  });

  it("refuses a url that is not http(s), an interval out of range and a duplicate preset", () => {
    expect(issuesOf(ZProbe, { ...prometheus, url: "ftp://host/metrics" })).toEqual([
      { path: ["url"], message: expect.stringMatching(/^url must be an http:\/\/ or https:\/\/ URL/) },
    ]);
    expect(issuesOf(ZProbe, { ...prometheus, intervalSeconds: 0.05 })).toEqual([
      { path: ["intervalSeconds"], message: "intervalSeconds must be at least 0.1 seconds" },
    ]);
    expect(issuesOf(ZProbe, { ...prometheus, intervalSeconds: 61 })).toEqual([
      { path: ["intervalSeconds"], message: "intervalSeconds must be at most 60 seconds" },
    ]);
    expect(issuesOf(ZProbe, { ...prometheus, presets: ["jvm", "jvm"] })).toEqual([{ path: ["presets"], message: "presets: each preset at most once" }]);
    expect(issuesOf(ZProbe, { ...prometheus, presets: ["python"] })).toEqual([
      { path: ["presets", 0], message: "presets: each must be one of process, jvm, go, node" },
    ]);
    expect(issuesOf(ZProbe, { ...prometheus, presets: [] })).toEqual([
      { path: ["presets"], message: "presets: choose at least one preset or add a custom series" },
    ]);
  });

  it("refuses a misspelt field instead of dropping it", () => {
    expect(issuesOf(ZProbe, { ...prometheus, preset: ["jvm"] })).toEqual([{ path: [], message: expect.stringContaining("preset") }]);
  });

  it("refuses a process match with none or two of pid, name, pattern, and a name longer than comm holds", () => {
    expect(issuesOf(ZProbe, { name: "db", kind: "process", match: {} })).toEqual([
      { path: ["match"], message: "match: give exactly one of pid, name or pattern" },
    ]);
    expect(issuesOf(ZProbe, { name: "db", kind: "process", match: { pid: 1, name: "java" } })).toEqual([
      { path: ["match"], message: "match: give exactly one of pid, name or pattern" },
    ]);
    expect(issuesOf(ZProbe, { name: "db", kind: "process", match: { name: "a-very-long-process-name" } })).toEqual([
      { path: ["match", "name"], message: expect.stringMatching(/^match\.name is the process name as \/proc\/PID\/comm has it, at most 15/) },
    ]);
    expect(issuesOf(ZProbe, { name: "db", kind: "process", match: { pattern: "java (" } })).toEqual([
      { path: ["match", "pattern"], message: "match.pattern is not a valid regular expression" },
    ]);
  });

  it("checks custom series field by field", () => {
    const series = {
      key: "queue_depth",
      metric: "app_queue_depth",
      labels: { queue: "orders" },
      aggregation: "mean",
      unit: "count",
      direction: "lower_is_better",
    };
    expect(ZProbe.parse({ ...prometheus, series: [series] })).toMatchObject({ series: [series] });
    expect(issuesOf(ZProbe, { ...prometheus, series: [{ ...series, key: "Queue" }] })).toEqual([
      { path: ["series", 0, "key"], message: expect.stringMatching(/^key: use lowercase/) },
    ]);
    expect(issuesOf(ZProbe, { ...prometheus, series: [{ ...series, metric: "9lives" }] })).toEqual([
      { path: ["series", 0, "metric"], message: expect.stringMatching(/^metric: a Prometheus metric name/) },
    ]);
    expect(issuesOf(ZProbe, { ...prometheus, series: [{ ...series, aggregation: "p99" }] })).toEqual([
      { path: ["series", 0, "aggregation"], message: "aggregation must be one of rate, delta, mean, max, min, last" },
    ]);
    expect(issuesOf(ZProbe, { ...prometheus, series: [series, series] })).toEqual([
      { path: ["series", 1, "key"], message: 'key "queue_depth" is used twice in this probe' },
    ]);
  });
});

describe("ZProbes", () => {
  it("refuses two probes of one name, on the second one's name", () => {
    expect(issuesOf(ZProbes, [prometheus, { ...prometheus }])).toEqual([
      { path: [1, "name"], message: 'name "app-1" is used by another probe of this variant' },
    ]);
  });

  it("refuses a custom series whose metric key would exceed 64 characters", () => {
    const series = { key: "k".repeat(30), metric: "m", aggregation: "last", unit: "count", direction: "lower_is_better" };
    expect(issuesOf(ZProbes, [{ ...prometheus, name: "n".repeat(40), series: [series] }])).toEqual([
      { path: [0, "series", 0, "key"], message: expect.stringMatching(/longer than a metric key's 64 characters/) },
    ]);
  });
});

describe("ZVariantConfig with probes", () => {
  it("keeps probes beside the workload", () => {
    expect(ZVariantConfig.parse({ workload: "http", settings: {}, probes: [prometheus] })).toMatchObject({ probes: [{ name: "app-1", presets: ["process"] }] });
  });

  it("refuses probes without a workload, on probes", () => {
    expect(issuesOf(ZVariantConfig, { probes: [prometheus] })).toEqual([
      { path: ["probes"], message: expect.stringMatching(/^probes: probes sample the system under test while a workload runs/) },
    ]);
  });
});
