// Every example is a consistent definition plus an upload of its runs that the ingest service will
// accept (create: false — so every variant and metric a run names must be in the definition).
// The stored figures are checked against the published ones in ../example-data.int.test.ts.
import { describe, expect, it } from "vitest";
import { exampleExperiments } from "./catalog";
import { PUBLISHED, SYNTHETIC } from "./common";

describe.each(exampleExperiments.map((example) => [example.definition.slug, example] as const))("example %s", (_slug, example) => {
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

it("has the five write-ups of EXAMPLES.md (the cache one as two experiments)", () => {
  expect(exampleExperiments.map((e) => e.definition.slug)).toEqual([
    "s3-upload-plain-vs-gzip",
    "http-vs-grpc-1mb",
    "upload-cpu-sdk-jce-provider",
    "product-list-redis-cache",
    "coupon-api-scale-out",
    "kafka-producer-serializers",
  ]);
});
