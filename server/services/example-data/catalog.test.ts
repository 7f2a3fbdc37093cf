// Every example is a consistent definition plus an upload of its runs that the ingest service will
// accept (create: false — so every variant and metric a run names must be in the definition).
// The stored figures are checked against the published ones in ../example-data.int.test.ts.
import { describe, expect, it } from "vitest";
import { builtInWorkloads } from "~/agents/reference/workloads/registry";
import { exampleExperiments } from "./catalog";
import { PUBLISHED, SYNTHETIC, type ExampleExperiment } from "./common";

const withRuns = exampleExperiments.filter((example): example is Required<ExampleExperiment> => example.results !== undefined);
const runnable = exampleExperiments.filter((example) => example.results === undefined);

describe.each(withRuns.map((example) => [example.definition.slug, example] as const))("example %s", (_slug, example) => {
  const { definition } = example;
  const upload = example.results();

  it("is an upload to this experiment that creates nothing", () => {
    expect(upload.experiment).toBe(definition.slug);
    expect(upload.create).toBe(false);
  });

  it("names only the definition's variants and metrics, with runs for every variant", () => {
    const variants = new Set(definition.variants.map((v) => v.name));
    const metrics = new Set(definition.metrics.map((m) => m.key));
    for (const run of upload.runs) {
      expect(variants).toContain(run.variant);
      for (const metric of run.metrics) expect(metrics).toContain(metric.key);
    }
    for (const variant of variants) {
      expect(upload.runs.filter((run) => run.variant === variant)).toHaveLength(definition.measuredRuns);
    }
  });

  it("labels every run as example data and says where its numbers came from", () => {
    for (const run of upload.runs) {
      expect(run.tags).toContain("example data");
      expect(run.sourceDetail?.startsWith(SYNTHETIC) || run.sourceDetail?.startsWith(PUBLISHED)).toBe(true);
    }
    expect(definition.description).toContain("**Example data.**");
    expect(definition.description).toContain("**What the authors concluded:**");
  });

  it("generates the same numbers every time (seeded)", () => {
    expect(example.results()).toEqual(upload);
  });
});

/** The workloads of the JVM agent's runnable examples (agents/jvm/workloads), with the metrics they report. */
const JVM_WORKLOADS: Record<string, Record<string, string>> = { json: { serialize_time: "us", message_bytes: "B", alloc_per_op: "B", gc_count: "count", cpu_time: "ms" } };
const forJvm = (example: ExampleExperiment) => example.definition.variants.every((variant) => (variant.config as { workload: string }).workload in JVM_WORKLOADS);
// The reference agent's workloads check the examples it runs here; an example for a workload only
// the Go agent has (http) is checked against the Go agent in
// test/integration/go-agent-runnable-examples.int.test.ts.
const registry = builtInWorkloads();
const forReferenceAgent = runnable.filter((example) => !forJvm(example) && example.definition.variants.every((variant) => registry.names().includes((variant.config as { workload: string }).workload)));

describe.each(runnable.filter(forJvm).map((example) => [example.definition.slug, example] as const))("runnable example %s for the JVM agent", (_slug, { definition }) => {
  it("tells the user to start a JVM agent, since the local agent of npm start cannot run it", () => {
    expect(definition.description).toContain("java -jar agent/target/versus-agent-jvm.jar");
  });

  it("asks only for metrics the workload reports, in its units (its end-to-end run: test/reliability/jvm-agent.rel.test.ts)", () => {
    for (const variant of definition.variants) {
      const reported = JVM_WORKLOADS[(variant.config as { workload: string }).workload]!;
      for (const metric of definition.metrics) expect([metric.key, reported[metric.key]]).toEqual([metric.key, metric.unit]);
    }
  });

  it("is run with warm-up and repeated measured runs", () => {
    expect(definition.warmupRuns).toBeGreaterThanOrEqual(1);
    expect(definition.measuredRuns).toBeGreaterThanOrEqual(5);
  });
});

it("checks here the runnable examples of the reference and JVM agents, elsewhere the Go agent's (http)", () => {
  expect(forReferenceAgent.map((example) => example.definition.slug)).toEqual(["gzip-payloads-runnable"]);
  expect(runnable.filter(forJvm).map((example) => example.definition.slug)).toEqual(["serializer-objectmapper-runnable"]);
  expect(runnable.map((example) => example.definition.slug)).toEqual(["gzip-payloads-runnable", "http-keepalive-runnable", "serializer-objectmapper-runnable"]);
});

describe.each(forReferenceAgent.map((example) => [example.definition.slug, example] as const))("runnable example %s", (_slug, { definition }) => {
  it("gives every variant a workload and settings the reference agent accepts", () => {
    for (const variant of definition.variants) {
      const config = variant.config as { workload: string; settings: unknown };
      const prepared = registry.prepare(config.workload, config.settings);
      expect("problem" in prepared ? prepared.problem : "ok").toBe("ok");
    }
  });

  it("asks only for metrics the workload reports, in its units", () => {
    const reported = new Map<string, string>();
    for (const variant of definition.variants) {
      const prepared = registry.prepare((variant.config as { workload: string }).workload, {});
      if (!("problem" in prepared)) for (const metric of prepared.metrics) reported.set(metric.key, metric.unit);
    }
    for (const metric of definition.metrics) expect([metric.key, reported.get(metric.key)]).toEqual([metric.key, metric.unit]);
  });

  it("is run with warm-up and repeated measured runs", () => {
    expect(definition.warmupRuns).toBeGreaterThanOrEqual(1);
    expect(definition.measuredRuns).toBeGreaterThanOrEqual(5);
  });
});

it("has the runnable examples, then the five write-ups of docs/examples.md (the cache one as two experiments)", () => {
  expect(exampleExperiments.map((e) => e.definition.slug)).toEqual([
    "gzip-payloads-runnable",
    "http-keepalive-runnable",
    "serializer-objectmapper-runnable",
    "s3-upload-plain-vs-gzip",
    "http-vs-grpc-1mb",
    "upload-cpu-sdk-jce-provider",
    "product-list-redis-cache",
    "coupon-api-scale-out",
    "kafka-producer-serializers",
  ]);
});
