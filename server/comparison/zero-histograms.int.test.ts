// A metric that is 0 in every sample of a variant (the plain upload's compress time) says nothing
// about the resolution its histograms need: the other variant's sub-millisecond times must keep
// theirs, and the all-zero histograms merge with any. Before, the first all-zero run fixed the
// metric's scale at 1 unit, so every later run's 0.3–2 ms times were recorded as whole
// milliseconds: the page showed a 0.8 ms median beside p50 / p90 / p99 of 0 / 0 / 0 ms.
import { afterAll, beforeAll, expect, it } from "vitest";
import { db } from "~/server/db/client";
import { ingestResults, type IngestOptions } from "~/server/runs/ingest-results";
import type { TResultsUpload } from "~/server/schemas/results";
import { getComparison } from "./comparison";
import { uploadProject } from "~/test/upload-project";

let options: IngestOptions;

beforeAll(async () => {
  options = await uploadProject(db, "zero-hist");
});
afterAll(() => db.$disconnect());

/** 100 gzip times from 0.30 to 0.795 ms (p50 ≈ 0.55 ms), or 100 zeros for the plain upload. */
const samples = (variant: string) => Array.from({ length: 100 }, (_, i) => (variant === "Plain" ? 0 : 0.3 + i * 0.005));

const upload = (variants: string[]): TResultsUpload => ({
  experiment: "compress",
  create: true,
  runs: variants.map((variant) => ({
    variant,
    status: "succeeded" as const,
    environment: {},
    tags: [],
    metrics: [{ key: "compress_time", unit: "ms", direction: "lower_is_better" as const, samples: samples(variant) }],
  })),
});

it("keeps sub-unit percentiles of a variant whose metric another variant recorded as all zeros first", async () => {
  // Plain first (its zeros stored before any gzip time), then both again, interleaved as Run does.
  await ingestResults(db, upload(["Plain"]), options);
  await ingestResults(db, upload(["Gzip", "Plain"]), options);
  await ingestResults(db, upload(["Gzip"]), options);
  const comparison = await getComparison(db, { projectId: options.projectId }, "compress", "Plain");
  const variants = comparison.metrics[0]?.comparison?.variants ?? [];
  const gzip = variants.find((v) => v.variant === "Gzip");
  const plain = variants.find((v) => v.variant === "Plain");
  expect(gzip?.percentiles?.p50).toBeCloseTo(0.55, 2);
  expect(gzip?.percentiles?.p99).toBeCloseTo(0.795, 2);
  expect(gzip?.percentiles?.count).toBe(200);
  // The zeros merge whatever scale each run was stored at.
  expect(plain?.percentiles).toMatchObject({ count: 200, p50: 0, p99: 0 });
});
