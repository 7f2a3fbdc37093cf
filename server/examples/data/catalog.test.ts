// Every example is a consistent definition plus an upload of its runs that the ingest service will
// accept (create: false — so every variant and metric a run names must be in the definition).
// The stored figures are checked against the published ones in ../example-data.int.test.ts.
import { describe, expect, it } from "vitest";
import { builtInWorkloads } from "~/agents/reference/workloads/registry";
import type { TWorkloadMetric } from "~/server/schemas/workload";
import { builtInAgentsWith } from "~/server/workloads/built-in-agents";
import goWorkloads from "~/server/workloads/built-in/go-workloads.json";
import jvmWorkloads from "~/server/workloads/built-in/jvm-workloads.json";
import referenceWorkloads from "~/server/workloads/built-in/reference-workloads.json";
import { workloadFitIssues, type WorkloadOffer } from "~/server/workloads/workload-fit";
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
    expect(definition.description).toContain("**About the example runs.**");
    expect(definition.description).toContain("**What the authors concluded:**");
  });

  it("generates the same numbers every time (seeded)", () => {
    expect(example.results()).toEqual(upload);
  });
});

// The built-in agents' own adverts (server/workloads/built-in/): an example for a workload only the
// Go agent has (http) also runs against the Go agent in test/integration/go-agent-runnable-examples.int.test.ts.
const adverts = { go: goWorkloads, jvm: jvmWorkloads, reference: referenceWorkloads } as const;
const offersOf = (workload: string): WorkloadOffer[] =>
  builtInAgentsWith(workload).flatMap((agent) =>
    (adverts[agent] as { name: string; settingsSchema: Record<string, unknown>; metrics: TWorkloadMetric[] }[])
      .filter((advert) => advert.name === workload)
      .map((advert) => ({ agent: { name: agent, kind: agent }, settingsSchema: advert.settingsSchema, metrics: advert.metrics })),
  );
const forJvm = (example: ExampleExperiment) =>
  example.definition.variants.every((variant) => builtInAgentsWith((variant.config as { workload: string }).workload).join() === "jvm");
const registry = builtInWorkloads();
const forReferenceAgent = runnable.filter(
  (example) => !forJvm(example) && example.definition.variants.every((variant) => registry.names().includes((variant.config as { workload: string }).workload)),
);

describe.each(runnable.map((example) => [example.definition.slug, example] as const))("runnable example %s", (_slug, { definition }) => {
  it("asks the built-in agents that have its workloads only for metrics and settings they take", () => {
    expect(workloadFitIssues(definition, offersOf)).toEqual([]);
    for (const variant of definition.variants) expect(offersOf((variant.config as { workload: string }).workload)).not.toEqual([]);
  });

  it("says which agent measures it in text that stays true after its first run, and names no fixed address", () => {
    // "Press Run", "no results yet" and how to start an agent against this server come from the data (the page).
    expect(definition.description).not.toMatch(/Press Run|no results yet|localhost|127\.0\.0\.1|venr_/);
    expect(definition.description).toMatch(/\*\*(Go|JVM) agent\*\*|`gzip` workload, which the Go agent, the TypeScript reference agent and the JVM agent/);
  });

  it("is run with warm-up and repeated measured runs", () => {
    expect(definition.warmupRuns).toBeGreaterThanOrEqual(1);
    expect(definition.measuredRuns).toBeGreaterThanOrEqual(5);
  });
});

it("checks here the runnable examples of the reference and JVM agents, elsewhere the Go agent's (http)", () => {
  expect(forReferenceAgent.map((example) => example.definition.slug)).toEqual(["gzip-payloads-runnable"]);
  expect(runnable.filter(forJvm).map((example) => example.definition.slug)).toEqual([
    "serializer-objectmapper-runnable",
    "upload-cpu-provider-runnable",
    "kafka-serializers-runnable",
  ]);
  expect(runnable.map((example) => example.definition.slug)).toEqual([
    "gzip-payloads-runnable",
    "http-keepalive-runnable",
    "serializer-objectmapper-runnable",
    "s3-upload-mail-runnable",
    "s3-upload-sms-runnable",
    "http-vs-grpc-1mb-runnable",
    "upload-cpu-provider-runnable",
    "cache-scale-out-runnable",
    "kafka-serializers-runnable",
  ]);
});

describe.each(forReferenceAgent.map((example) => [example.definition.slug, example] as const))(
  "runnable example %s on the reference agent",
  (_slug, { definition }) => {
    it("gives every variant a workload and settings the reference agent accepts (its own checks, cross-field rules included)", () => {
      for (const variant of definition.variants) {
        const config = variant.config as { workload: string; settings: unknown };
        const prepared = registry.prepare(config.workload, config.settings);
        expect("problem" in prepared ? prepared.problem : "ok").toBe("ok");
      }
    });
  },
);

it("has the runnable examples, then the five write-ups of docs/examples.md (the cache one as two experiments), each runnable twin before its write-up", () => {
  expect(exampleExperiments.map((e) => e.definition.slug)).toEqual([
    "gzip-payloads-runnable",
    "http-keepalive-runnable",
    "serializer-objectmapper-runnable",
    "s3-upload-mail-runnable",
    "s3-upload-sms-runnable",
    "s3-upload-plain-vs-gzip",
    "http-vs-grpc-1mb-runnable",
    "http-vs-grpc-1mb",
    "upload-cpu-provider-runnable",
    "upload-cpu-sdk-jce-provider",
    "cache-scale-out-runnable",
    "product-list-redis-cache",
    "coupon-api-scale-out",
    "kafka-serializers-runnable",
    "kafka-producer-serializers",
  ]);
});
