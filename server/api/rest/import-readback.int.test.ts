// A new user's first step, end to end on a real, migrated PostgreSQL: import one tool's REAL output
// into a new experiment as a single variant (POST /api/v1/imports?variant=base&create=true), then
// read it back through GET /api/v1/experiments/{slug}/comparison. With nothing to compare against,
// every metric must still answer the variant's own statistics — n, the median with its CI, mean ±
// sd, min/max and (where the runs carry histograms) merged percentiles — built from the numbers
// the tool printed (JMH's score, go test's ns/op, hyperfine's mean, k6's avg and rate, wrk's
// Requests/sec…), which test/importer-expectations.ts reads from the fixture independently of the
// importers. Only the candidate-vs-baseline part is absent, with its reason.
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET } from "~/app/api/v1/experiments/[slugOrId]/comparison/route";
import { POST } from "~/app/api/v1/imports/route";
import { db } from "~/server/db/client";
import { metricKey } from "~/server/importers/to-upload";
import type { TComparison } from "~/server/schemas/comparison";
import { createApiKey } from "~/server/projects/api-keys";
import { createProject } from "~/server/projects/projects";
import { expectations, fixtureFiles, formatsWithFixtures, mean, readFixture, variantNameOf, type ExpectedBenchmark } from "~/test/importer-expectations";
import type { UploadBody } from "~/test/rest-assertions";

afterAll(() => db.$disconnect());

const suffix = () => crypto.randomBytes(4).toString("hex");
const slugFor = (what: string) =>
  `${what
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 40)}-${suffix()}`;

let project: { id: string; slug: string };
let apiKey: string;

beforeAll(async () => {
  const slug = `readback-${suffix()}`;
  project = await createProject(db, { name: slug, slug, description: "" });
  apiKey = (await createApiKey(db, slug, "read-back test")).secret;
});

async function importFile(format: string, text: string, query: Record<string, string>): Promise<UploadBody> {
  const params = new URLSearchParams({ format, create: "true", ...query });
  const response = await POST(
    new Request(`http://test.local/api/v1/imports?${params}`, {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "text/plain" },
      body: text,
    }),
  );
  const body = (await response.json()) as UploadBody;
  expect(response.status, JSON.stringify(body)).toBe(201);
  return body;
}

async function readComparison(slug: string): Promise<TComparison> {
  const response = await GET(new Request(`http://test.local/api/v1/experiments/${slug}/comparison`, { headers: { authorization: `Bearer ${apiKey}` } }), {
    params: Promise.resolve({ slugOrId: slug }),
  });
  const body = (await response.json()) as TComparison;
  expect(response.status, JSON.stringify(body)).toBe(200);
  return body;
}

function sortedMedian(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

function sampleSd(values: number[]): number {
  const m = mean(values);
  return Math.sqrt(values.reduce((a, x) => a + (x - m) ** 2, 0) / (values.length - 1));
}

function expectClose(actual: number | null | undefined, expected: number, what: string, tolerance = 1e-9) {
  expect(actual, what).toBeTypeOf("number");
  const error = Math.abs((actual as number) - expected);
  expect(error <= tolerance * Math.abs(expected) || error < 1e-12, `${what}: answered ${actual}, the tool printed ${expected}`).toBe(true);
}

/**
 * The metric key one variant gives a benchmark's metric: the tool's key alone for a file of one
 * benchmark, else "<the benchmark's variant name>:<key>" (split=metric, see to-upload.ts).
 */
function oneVariantKey(expected: ExpectedBenchmark[], variantName: string, key: string): string {
  return expected.length > 1 ? metricKey(`${variantName}:${key}`) : metricKey(key);
}

async function checkReadBack(format: string, file: string) {
  const text = readFixture(file);
  const expected = (expectations[format] as (text: string) => ExpectedBenchmark[])(text);
  expect(expected.length, `the test's own reader found no benchmarks in ${file}`).toBeGreaterThan(0);

  // The name each benchmark gets as a variant of its own (the default split) is the prefix its
  // metrics get when one variant holds them all.
  const split = await importFile(format, text, { experiment: slugFor(`names-${file}`) });
  const names = [...new Set(split.runs.map((run) => run.variant))];

  const slug = slugFor(file);
  await importFile(format, text, { experiment: slug, variant: "base" });
  const comparison = await readComparison(slug);
  const rounds = Math.max(...expected.map((b) => b.runs.length));
  expect(comparison.variants).toEqual([{ name: "base", isBaseline: true, runs: rounds }]);

  const experiment = await db.experiment.findUniqueOrThrow({ where: { projectId_slug: { projectId: project.id, slug } }, select: { id: true } });
  const withHistogram = new Set(
    (
      await db.runMetricResult.findMany({
        where: { run: { experimentId: experiment.id }, histogram: { not: null } },
        select: { metric: { select: { key: true } } },
      })
    ).map((r) => r.metric.key),
  );

  let checked = 0;
  for (const benchmark of expected) {
    const name = variantNameOf(names, benchmark);
    const keys = [...new Set(benchmark.runs.flatMap((run) => Object.keys(run)))];
    for (const key of keys) {
      const metric = comparison.metrics.find((m) => m.key === oneVariantKey(expected, name, key));
      expect(metric, `${file}: metric of "${name}" ${key} among ${comparison.metrics.map((m) => m.key).join(", ")}`).toBeDefined();
      if (!metric) continue;
      const what = `${file}: ${metric.key}`;
      // Each run's replicate is its value when the tool printed the run's figure (a rate), else its
      // mean (imported metrics aggregate by mean): what the tool printed.
      const printed = benchmark.runs.map((run) => run[key]?.value ?? run[key]?.mean).filter((v): v is number => v !== undefined);
      expect(metric.comparison, `${what}: ${metric.reason}`).not.toBeNull();
      expect(metric.reason, what).toBe("no other variant has runs with this metric");
      const result = metric.comparison!;
      expect(result.comparisons, what).toEqual([]);
      expect(
        result.variants.map((v) => [v.variant, v.isBaseline]),
        what,
      ).toEqual([["base", true]]);
      const stats = result.variants[0]!;

      expect(stats.n, `${what}: runs`).toBe(printed.length);
      expectClose(stats.median, sortedMedian(printed), `${what} median`);
      expectClose(stats.mean, mean(printed), `${what} mean`);
      expectClose(stats.min, Math.min(...printed), `${what} min`);
      expectClose(stats.max, Math.max(...printed), `${what} max`);
      if (printed.length > 1) expectClose(stats.sd, sampleSd(printed), `${what} sd`, 1e-6);
      else expect(stats.sd, `${what}: one run has no sd`).toBeNull();
      expect(stats.medianCi, `${what}: median CI`).not.toBeNull();
      expect(stats.medianCi!.low).toBeLessThanOrEqual(stats.median!);
      expect(stats.medianCi!.high).toBeGreaterThanOrEqual(stats.median!);

      // The aggregate the tool printed for the whole benchmark (JMH's score over forks of equal
      // size, Google Benchmark's _mean row) is the mean of the runs. JMH's sample mode pools forks
      // of unequal sample counts: its score is then a weighted mean, between the runs' extremes.
      if (benchmark.aggregate?.metric === key) {
        const { value, weighted } = benchmark.aggregate;
        if (!weighted || new Set(benchmark.runs.map((run) => run[key]?.n)).size === 1) expectClose(stats.mean, value, `${what}: ${benchmark.aggregate.what}`);
        else {
          expect(value, `${what}: ${benchmark.aggregate.what}`).toBeGreaterThanOrEqual(stats.min!);
          expect(value, `${what}: ${benchmark.aggregate.what}`).toBeLessThanOrEqual(stats.max!);
        }
      }

      // Merged percentiles exactly when the runs recorded histograms; one run's extremes are the
      // tool's own minimum and maximum (within the histogram's 3 significant digits).
      expect(stats.percentiles !== null, `${what}: merged percentiles iff histograms`).toBe(withHistogram.has(metric.key));
      const only = benchmark.runs.length === 1 ? benchmark.runs[0]?.[key] : undefined;
      if (stats.percentiles && only?.min !== undefined) expectClose(stats.percentiles.min, only.min, `${what}: merged min`, 2e-3);
      if (stats.percentiles && only?.max !== undefined) expectClose(stats.percentiles.max, only.max, `${what}: merged max`, 2e-3);
      checked++;
    }
  }
  expect(checked, `${file}: metrics checked`).toBeGreaterThan(0);
}

describe("one-variant import, read back through the comparison: each variant's own figures", () => {
  it("covers every format with fixtures", () => {
    expect(formatsWithFixtures.sort()).toEqual([
      "criterion",
      "csv",
      "gobench",
      "google-benchmark",
      "hyperfine",
      "jmh",
      "k6",
      "ngrinder",
      "pytest-benchmark",
      "wrk",
    ]);
  });

  for (const format of formatsWithFixtures) {
    describe(format, () => {
      for (const file of fixtureFiles(format)) {
        it(`${file}: the numbers the tool printed`, async () => {
          await checkReadBack(format, file);
        });
      }
    });
  }
});
