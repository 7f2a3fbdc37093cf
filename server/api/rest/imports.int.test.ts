// POST /api/v1/imports end to end on a real, migrated PostgreSQL, calling the exported Next.js
// route handler with a Fetch Request. Every tool's REAL output (server/importers/fixtures/<format>/,
// produced by running the tool) is imported into a fresh experiment, and what is stored is
// compared with numbers this file reads from the fixture itself — per run (repetitions become
// runs), and against the aggregate the tool printed (JMH's score, Google Benchmark's _mean row,
// hyperfine's and pytest-benchmark's mean, Criterion's mean estimate, wrk's Requests/sec…).
// The expectations are computed by small independent readers of each format
// (test/importer-expectations.ts), not by the importers under test, and are driven by the fixture
// files present in each folder.
// Refusals (bad query, empty body, another tool's file) must leave the database unchanged.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST } from "~/app/api/v1/imports/route";
import { db } from "~/server/db/client";
import { importFormats } from "~/server/schemas/import-formats";
import { metricKey } from "~/server/importers/to-upload";
import { createApiKey } from "~/server/projects/api-keys";
import { createProject } from "~/server/projects/projects";
import {
  expectations,
  expectGobench,
  expectHyperfine,
  fixtureFiles,
  FIXTURES,
  formatsWithFixtures,
  readFixture,
  variantNameOf,
  type ExpectedBenchmark,
  type Figure,
} from "~/test/importer-expectations";
import { expectRefused, fieldPaths, rowCounts } from "~/test/rest-assertions";

const refusedBody = async (request: () => Promise<Response>, status: number, code: string) => (await expectRefused(db, request, status, code)).body;
const counts = () => rowCounts(db);

afterAll(() => db.$disconnect());

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

const suffix = () => crypto.randomBytes(4).toString("hex");
const slugFor = (what: string) =>
  `${what
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 40)}-${suffix()}`;

interface UploadBody {
  experiment: { slug: string; url: string };
  replayed: boolean;
  runs: { id: string; variant: string; repetition: number; metrics: string[] }[];
  created: { experiment: boolean; variants: string[]; metrics: string[] };
}

let project: { id: string; slug: string };
let apiKey: string;

beforeAll(async () => {
  const slug = `imports-${suffix()}`;
  project = await createProject(db, { name: slug, slug, description: "" });
  apiKey = (await createApiKey(db, slug, "imports test")).secret;
});

function postImport(query: Record<string, string | undefined>, body: string, headers: Record<string, string> = {}) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, value);
  return POST(
    new Request(`http://test.local/api/v1/imports?${params}`, {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "text/plain", ...headers },
      body,
    }),
  );
}

async function importJson<T = UploadBody>(query: Record<string, string | undefined>, body: string, headers: Record<string, string> = {}) {
  const response = await postImport(query, body, headers);
  return { status: response.status, body: (await response.json()) as T };
}

async function storedRuns(experimentSlug: string) {
  const experiment = await db.experiment.findUniqueOrThrow({
    where: { projectId_slug: { projectId: project.id, slug: experimentSlug } },
    include: {
      variants: true,
      metrics: true,
      runs: { orderBy: { repetition: "asc" }, include: { variant: true, results: { include: { metric: true } }, timeSeries: { include: { metric: true } } } },
    },
  });
  return experiment;
}
type StoredExperiment = Awaited<ReturnType<typeof storedRuns>>;
type StoredRun = StoredExperiment["runs"][number];

function expectClose(actual: number | null | undefined, expected: number, what: string, tolerance = 1e-9) {
  expect(actual, what).not.toBeNull();
  expect(actual, what).toBeDefined();
  const scale = Math.max(Math.abs(expected), 1e-300);
  expect(
    Math.abs((actual as number) - expected) / scale <= tolerance || Math.abs((actual as number) - expected) < 1e-12,
    `${what}: stored ${actual}, expected ${expected}`,
  ).toBe(true);
}

/** The stored variant of an expected benchmark. */
function variantOf(experiment: StoredExperiment, benchmark: ExpectedBenchmark) {
  const name = variantNameOf(
    experiment.variants.map((v) => v.name),
    benchmark,
  );
  return experiment.variants.find((v) => v.name === name) as StoredExperiment["variants"][number];
}

function resultOf(run: StoredRun, key: string) {
  // A key whose benchmarks disagree on the unit is stored once per unit ("score:ops/ms").
  const result =
    run.results.find((r) => r.metric.key === key) ??
    run.results.find((r) => r.metric.key.startsWith(`${key}:`) && r.metric.unit === r.metric.key.slice(key.length + 1));
  expect(result, `metric "${key}" in run ${run.repetition} of "${run.variant.name}" (has ${run.results.map((r) => r.metric.key).join(", ")})`).toBeDefined();
  return result as StoredRun["results"][number];
}

async function checkImport(format: string, file: string) {
  const text = readFixture(file);
  const expected = (expectations[format] as (text: string) => ExpectedBenchmark[])(text);
  expect(expected.length, `the test's own reader found no benchmarks in ${file}`).toBeGreaterThan(0);
  const experimentSlug = slugFor(file);

  const response = await importJson({ format, experiment: experimentSlug, create: "true" }, text);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  const totalRuns = expected.reduce((a, b) => a + b.runs.length, 0);
  expect(response.body.runs).toHaveLength(totalRuns);
  expect(response.body.created.experiment).toBe(true);

  const experiment = await storedRuns(experimentSlug);
  expect(experiment.runs).toHaveLength(totalRuns);
  expect(experiment.variants).toHaveLength(expected.length);
  expect(experiment.variants.filter((v) => v.isBaseline)).toHaveLength(1);
  for (const run of experiment.runs) expect({ source: run.source, sourceDetail: run.sourceDetail }).toEqual({ source: "import", sourceDetail: format });

  for (const benchmark of expected) {
    const variant = variantOf(experiment, benchmark);
    const runs = experiment.runs.filter((run) => run.variantId === variant.id);
    expect(
      runs.map((run) => run.repetition),
      `repetitions of "${variant.name}"`,
    ).toEqual(benchmark.runs.map((_, i) => i));
    benchmark.runs.forEach((figures, r) => {
      for (const [key, values] of Object.entries(figures)) {
        const result = resultOf(runs[r] as StoredRun, metricKey(key));
        for (const [figure, value] of Object.entries(values) as [Figure, number][]) {
          const what = `${file}: ${variant.name} run ${r} ${key}.${figure}`;
          if (figure === "n") expect(Number(result.n), what).toBe(value);
          else expectClose(result[figure], value, what);
        }
      }
    });
    if (benchmark.aggregate) {
      const { metric, value, weighted, what } = benchmark.aggregate;
      const results = runs.map((run) => resultOf(run, metric));
      const weights = results.map((result) => (weighted ? Number(result.n) : 1));
      const combined = results.reduce((a, result, i) => a + result.mean * (weights[i] as number), 0) / weights.reduce((a, w) => a + w, 0);
      expectClose(combined, value, `${file}: ${what} vs the stored runs' means`);
    }
  }
  return { experiment, expected, response };
}

// ---------------------------------------------------------------------------------------------
// Query and body refusals
// ---------------------------------------------------------------------------------------------

describe("POST /api/v1/imports refuses bad requests", () => {
  const wrk = () => readFixture(fixtureFiles("wrk")[0] ?? "wrk/wrk-latency.txt");

  it("an unknown format → 400 listing the formats", async () => {
    const body = await refusedBody(() => postImport({ format: "apachebench", experiment: "x", create: "true" }, wrk()), 400, "BAD_REQUEST");
    expect(fieldPaths(body)).toEqual(["format"]);
    expect(body.error.message).toContain('unknown format "apachebench"');
    for (const format of importFormats) expect(body.error.message).toContain(format);
  });

  it("a missing format → 400", async () => {
    const body = await refusedBody(() => postImport({ experiment: "x", create: "true" }, wrk()), 400, "BAD_REQUEST");
    expect(fieldPaths(body)).toEqual(["format"]);
    expect(body.error.message).toContain("format is required");
  });

  it("a bad experiment slug → 400", async () => {
    const body = await refusedBody(() => postImport({ format: "wrk", experiment: "Not A Slug", create: "true" }, wrk()), 400, "BAD_REQUEST");
    expect(fieldPaths(body)).toEqual(["experiment"]);
    expect(body.error.message).toContain("lowercase letters, digits and single hyphens");
  });

  it("a missing experiment → 400", async () => {
    const body = await refusedBody(() => postImport({ format: "wrk", create: "true" }, wrk()), 400, "BAD_REQUEST");
    expect(fieldPaths(body)).toEqual(["experiment"]);
  });

  it("a bad split or create value → 400 naming the parameter", async () => {
    const split = await refusedBody(() => postImport({ format: "wrk", experiment: "x", split: "benchmark" }, wrk()), 400, "BAD_REQUEST");
    expect(fieldPaths(split)).toEqual(["split"]);
    expect(split.error.message).toContain('split must be "variant"');
    const create = await refusedBody(() => postImport({ format: "wrk", experiment: "x", create: "yes" }, wrk()), 400, "BAD_REQUEST");
    expect(fieldPaths(create)).toEqual(["create"]);
  });

  it("an empty body → 400 naming the format", async () => {
    const body = await refusedBody(() => postImport({ format: "wrk", experiment: "x", create: "true" }, ""), 400, "BAD_REQUEST");
    expect(body.error.message).toContain("Request body is empty: send the wrk output as the body");
  });

  it("a whitespace-only body → 422 saying it is empty", async () => {
    const body = await refusedBody(() => postImport({ format: "jmh", experiment: "x", create: "true" }, "  \n\n "), 422, "UNPROCESSABLE");
    expect(body.error.message).toContain("Not valid jmh output: the body is empty");
  });

  it("without an API key → 401", async () => {
    const before = await counts();
    const response = await POST(new Request("http://test.local/api/v1/imports?format=wrk&experiment=x&create=true", { method: "POST", body: wrk() }));
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toContain("Bearer");
    expect(await counts()).toEqual(before);
  });

  it("an unknown experiment without create → 404", async () => {
    const body = await refusedBody(() => postImport({ format: "wrk", experiment: `missing-${suffix()}` }, wrk()), 404, "NOT_FOUND");
    expect(body.error.message).toContain("No experiment");
  });

  it("a body over the limit → 413", async () => {
    const body = await refusedBody(
      () =>
        POST(
          new Request("http://test.local/api/v1/imports?format=wrk&experiment=x&create=true", {
            method: "POST",
            headers: { authorization: `Bearer ${apiKey}`, "content-length": "100000000" },
            body: wrk(),
          }),
        ),
      413,
      "PAYLOAD_TOO_LARGE",
    );
    expect(body.error.message).toContain("VERSUS_MAX_BODY_BYTES");
  });
});

// ---------------------------------------------------------------------------------------------
// Every tool's real output
// ---------------------------------------------------------------------------------------------

describe("imports every fixture with create=true and stores the tool's numbers", () => {
  it("has fixtures for every format", () => {
    // Not a hard requirement of the API, but a format without a fixture is untested here.
    expect(importFormats.filter((format) => !formatsWithFixtures.includes(format))).toEqual([]);
  });

  for (const format of formatsWithFixtures) {
    describe(format, () => {
      for (const file of fixtureFiles(format)) {
        it(`${file}: one run per repetition, the numbers the tool printed`, async () => {
          await checkImport(format, file);
        });
      }
    });
  }

  it("criterion: a lone sample.json (no estimates) is imported; a lone estimates.json is refused", async () => {
    const dirs = fs.readdirSync(path.join(FIXTURES, "criterion")).filter((d) => fs.existsSync(path.join(FIXTURES, "criterion", d, "sample.json")));
    expect(dirs.length).toBeGreaterThan(0);
    const dir = dirs[0] as string;
    await checkImport("criterion", `criterion/${dir}/sample.json`);
    const estimates = path.join(FIXTURES, "criterion", dir, "estimates.json");
    if (fs.existsSync(estimates)) {
      const body = await refusedBody(
        () => postImport({ format: "criterion", experiment: slugFor("estimates"), create: "true" }, fs.readFileSync(estimates, "utf8")),
        422,
        "UNPROCESSABLE",
      );
      expect(body.error.message).toContain("estimates.json");
    }
  });

  it("k6 --out csv keeps per-request samples and per-second time series", async () => {
    const file = fixtureFiles("k6").find((f) => readFixture(f).startsWith("metric_name,"));
    expect(file).toBeDefined();
    const { experiment } = await checkImport("k6", file as string);
    const run = experiment.runs[0] as StoredRun;
    const duration = resultOf(run, "http_req_duration");
    expect(duration.samples).not.toBeNull();
    expect(duration.histogram).not.toBeNull();
    expect(run.timeSeries.map((s) => s.metric.key)).toContain("http_reqs");
  });

  it("ngrinder keeps the per-interval series", async () => {
    const file = fixtureFiles("ngrinder")[0] as string;
    const { experiment } = await checkImport("ngrinder", file);
    const rows = readFixture(file).trim().split(/\r?\n/).slice(1);
    const tpsColumn = (readFixture(file).split(/\r?\n/)[0] as string).split(",").indexOf("TPS");
    const totals = experiment.runs.find((run) => run.variant.name === "ngrinder") as StoredRun;
    const series = totals.timeSeries.find((s) => s.metric.key === "tps");
    expect(series?.values).toEqual(rows.map((row) => Number(row.split(",")[tpsColumn])));
  });
});

// ---------------------------------------------------------------------------------------------
// Mapping: split, variant, existing experiments, idempotency
// ---------------------------------------------------------------------------------------------

describe("mapping onto an experiment", () => {
  const gobenchText = () => readFixture(fixtureFiles("gobench").find((f) => !readFixture(f).trimStart().startsWith("{")) as string);

  it("split=variant (the default): a variant per benchmark, a run per repetition", async () => {
    const text = gobenchText();
    const expected = expectGobench(text);
    const experimentSlug = slugFor("split-variant");
    const response = await importJson({ format: "gobench", experiment: experimentSlug, create: "true", split: "variant" }, text);
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    const experiment = await storedRuns(experimentSlug);
    expect(experiment.variants).toHaveLength(expected.length);
    expect(experiment.runs).toHaveLength(expected.reduce((a, b) => a + b.runs.length, 0));
    // Metrics are the tool's units, shared by all variants.
    expect(experiment.metrics.map((m) => m.key).sort()).toEqual([...new Set(expected.flatMap((b) => Object.keys(b.runs[0] ?? {})))].map(metricKey).sort());
  });

  it("split=metric: one variant, a run per round, a metric per benchmark and unit", async () => {
    const text = gobenchText();
    const expected = expectGobench(text);
    const experimentSlug = slugFor("split-metric");
    const response = await importJson({ format: "gobench", experiment: experimentSlug, create: "true", split: "metric", variant: "go1.26" }, text);
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    const experiment = await storedRuns(experimentSlug);
    expect(experiment.variants.map((v) => [v.name, v.isBaseline])).toEqual([["go1.26", true]]);
    const rounds = Math.max(...expected.map((b) => b.runs.length));
    expect(experiment.runs).toHaveLength(rounds);
    const combos = expected.reduce((a, b) => a + Object.keys(b.runs[0] ?? {}).length, 0);
    expect(experiment.metrics).toHaveLength(combos);
    expect(experiment.runs[0]?.results).toHaveLength(combos);

    // Each benchmark's ns/op of each round is the number go test printed on that line.
    for (const benchmark of expected) {
      // The key is "<variant name>:ns/op" made key-safe; the label keeps the original text.
      const candidates = experiment.metrics.filter((m) => {
        const raw = m.label || m.key;
        return raw.endsWith(":ns/op") && (raw === `${benchmark.name}:ns/op` || raw.startsWith(`${benchmark.name} [`));
      });
      expect(
        candidates.map((m) => m.label || m.key),
        `ns/op metric of ${benchmark.name}`,
      ).toHaveLength(1);
      const chosen = candidates[0];
      benchmark.runs.forEach((figures, round) => {
        const result = (experiment.runs[round] as StoredRun).results.find((r) => r.metricId === chosen?.id);
        expect(result?.mean, `${benchmark.name} round ${round}`).toBe(figures["ns/op"]?.mean);
      });
    }
  });

  it("split=metric keeps each benchmark in its metrics' labels (hyperfine labels every wall_time alike)", async () => {
    const file = fixtureFiles("hyperfine").find((f) => expectHyperfine(readFixture(f)).length > 1);
    expect(file).toBeDefined();
    const text = readFixture(file as string);
    const expected = expectHyperfine(text);
    const experimentSlug = slugFor("hyperfine-metric");
    const response = await importJson({ format: "hyperfine", experiment: experimentSlug, create: "true", split: "metric", variant: "bash" }, text);
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    const experiment = await storedRuns(experimentSlug);
    expect(experiment.runs).toHaveLength(1);
    const wallTimes = experiment.metrics.filter((m) => m.key.endsWith(":wall_time"));
    expect(wallTimes).toHaveLength(expected.length);
    expect(new Set(wallTimes.map((m) => m.label)).size).toBe(expected.length);
    for (const benchmark of expected) {
      const metric = wallTimes.find((m) => m.label.startsWith(benchmark.name));
      expect(metric, `wall_time of "${benchmark.name}" among labels ${wallTimes.map((m) => m.label).join(" | ")}`).toBeDefined();
      const result = resultOf(experiment.runs[0] as StoredRun, (metric as { key: string }).key);
      expectClose(result.mean, benchmark.runs[0]?.wall_time?.mean as number, `hyperfine mean of ${benchmark.name}`);
    }
  });

  it("split=metric without a variant → 400", async () => {
    const body = await refusedBody(
      () => postImport({ format: "gobench", experiment: slugFor("no-variant"), create: "true", split: "metric" }, gobenchText()),
      400,
      "BAD_REQUEST",
    );
    expect(fieldPaths(body)).toEqual(["variant"]);
  });

  it("one variant for a file of several benchmarks with split=variant → 400 explaining the options", async () => {
    const body = await refusedBody(
      () => postImport({ format: "gobench", experiment: slugFor("one-variant"), create: "true", split: "variant", variant: "go" }, gobenchText()),
      400,
      "BAD_REQUEST",
    );
    expect(body.error.message).toContain("split=metric");
  });

  it("variant=… with a single-benchmark file puts its runs in that variant, and a later import adds a repetition without create", async () => {
    const text = readFixture(fixtureFiles("wrk")[0] as string);
    const experimentSlug = slugFor("wrk-variant");
    const first = await importJson({ format: "wrk", experiment: experimentSlug, create: "true", variant: "nginx" }, text);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.runs.map((r) => [r.variant, r.repetition])).toEqual([["nginx", 0]]);
    const second = await importJson({ format: "wrk", experiment: experimentSlug, variant: "nginx" }, text);
    expect(second.status, JSON.stringify(second.body)).toBe(201);
    expect(second.body.runs.map((r) => [r.variant, r.repetition])).toEqual([["nginx", 1]]);
    expect(second.body.created).toEqual({ experiment: false, variants: [], metrics: [] });
    // Into a variant the experiment does not have, without create → 422.
    const body = await refusedBody(() => postImport({ format: "wrk", experiment: experimentSlug, variant: "caddy" }, text), 422, "UNPROCESSABLE");
    expect(body.error.message).toContain('no variant "caddy"');
  });

  it("Idempotency-Key: a retried import stores once; the same key for another query is a 409", async () => {
    const text = readFixture(fixtureFiles("wrk")[0] as string);
    const experimentSlug = slugFor("wrk-retry");
    const key = `import-${suffix()}`;
    const first = await importJson({ format: "wrk", experiment: experimentSlug, create: "true" }, text, { "idempotency-key": key });
    expect(first.status).toBe(201);
    const again = await importJson({ format: "wrk", experiment: experimentSlug, create: "true" }, text, { "idempotency-key": key });
    expect(again.status).toBe(200);
    expect(again.body.replayed).toBe(true);
    expect(again.body.runs).toEqual(first.body.runs);
    const body = await refusedBody(
      () => postImport({ format: "wrk", experiment: experimentSlug, create: "true", variant: "other" }, text, { "idempotency-key": key }),
      409,
      "CONFLICT",
    );
    expect(body.error.message).toContain(key);
    expect((await storedRuns(experimentSlug)).runs).toHaveLength(1);
  });
});

// ---------------------------------------------------------------------------------------------
// One tool's file sent as another's
// ---------------------------------------------------------------------------------------------

describe("a tool's file sent as another format → 422 naming the format, nothing stored", () => {
  /** One real file per tool, keyed by the tool (k6's two outputs both count as k6). */
  const samples = formatsWithFixtures.map((tool) => ({ tool, file: fixtureFiles(tool)[0] as string }));

  it("hyperfine JSON as jmh", async () => {
    const file = fixtureFiles("hyperfine")[0];
    expect(file).toBeDefined();
    const body = await refusedBody(
      () => postImport({ format: "jmh", experiment: slugFor("wrong"), create: "true" }, readFixture(file as string)),
      422,
      "UNPROCESSABLE",
    );
    expect(body.error.message).toMatch(/^Not valid jmh output: /);
    expect(body.error.message).toContain("this looks like hyperfine JSON");
  });

  it("wrk text as gobench", async () => {
    const file = fixtureFiles("wrk")[0];
    expect(file).toBeDefined();
    const body = await refusedBody(
      () => postImport({ format: "gobench", experiment: slugFor("wrong"), create: "true" }, readFixture(file as string)),
      422,
      "UNPROCESSABLE",
    );
    expect(body.error.message).toMatch(/^Not valid gobench output: /);
  });

  for (const format of importFormats) {
    it(`every other tool's file as ${format}`, async () => {
      for (const { tool, file } of samples) {
        if (tool === format) continue;
        const body = await refusedBody(() => postImport({ format, experiment: slugFor("wrong"), create: "true" }, readFixture(file)), 422, "UNPROCESSABLE");
        expect(body.error.message, `${file} as ${format}`).toMatch(new RegExp(`^Not valid ${format} output: `));
      }
    });
  }
});
