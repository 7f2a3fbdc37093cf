// POST /api/v1/imports end to end on a real, migrated PostgreSQL, calling the exported Next.js
// route handler with a Fetch Request. Every tool's REAL output (server/importers/fixtures/<format>/,
// produced by running the tool) is imported into a fresh experiment, and what is stored is
// compared with numbers this file reads from the fixture itself — per run (repetitions become
// runs), and against the aggregate the tool printed (JMH's score, Google Benchmark's _mean row,
// hyperfine's and pytest-benchmark's mean, Criterion's mean estimate, wrk's Requests/sec…).
// The expectations are computed by small independent readers of each format below, not by the
// importers under test, and are driven by the fixture files present in each folder.
// Refusals (bad query, empty body, another tool's file) must leave the database unchanged.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST } from "~/app/api/v1/imports/route";
import { db } from "~/server/db/client";
import { importFormats } from "~/server/schemas/import-formats";
import { metricKey } from "~/server/importers/to-upload";
import { createApiKey } from "~/server/services/api-keys";
import { createProject } from "~/server/services/projects";
import { expectRefused, fieldPaths, rowCounts } from "~/test/rest-assertions";

const refusedBody = async (request: () => Promise<Response>, status: number, code: string) => (await expectRefused(db, request, status, code)).body;
const counts = () => rowCounts(db);

afterAll(() => db.$disconnect());

// ---------------------------------------------------------------------------------------------
// Fixtures
// ---------------------------------------------------------------------------------------------

const FIXTURES = path.resolve(import.meta.dirname, "../../importers/fixtures");
/** Tool output files; the folders also hold the scripts and sources that produced them. */
const DATA_FILE = /\.(json|jsonl|txt|csv|out|log)$/;

function fixtureFiles(format: string): string[] {
  const dir = path.join(FIXTURES, format);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => DATA_FILE.test(name) && fs.statSync(path.join(dir, name)).isFile())
    .sort()
    .map((name) => `${format}/${name}`);
}
const readFixture = (file: string) => fs.readFileSync(path.join(FIXTURES, file), "utf8");

/** Formats with an importer and at least one fixture file. */
const formatsWithFixtures = importFormats.filter((format) => fixtureFiles(format).length > 0);

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

const suffix = () => crypto.randomBytes(4).toString("hex");
const slugFor = (what: string) => `${what.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "").slice(0, 40)}-${suffix()}`;

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
  return POST(new Request(`http://test.local/api/v1/imports?${params}`, {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "text/plain", ...headers },
    body,
  }));
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

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

function expectClose(actual: number | null | undefined, expected: number, what: string, tolerance = 1e-9) {
  expect(actual, what).not.toBeNull();
  expect(actual, what).toBeDefined();
  const scale = Math.max(Math.abs(expected), 1e-300);
  expect(Math.abs((actual as number) - expected) / scale <= tolerance || Math.abs((actual as number) - expected) < 1e-12, `${what}: stored ${actual}, expected ${expected}`).toBe(true);
}

// ---------------------------------------------------------------------------------------------
// Expectations read from the fixtures, independently of the importers
// ---------------------------------------------------------------------------------------------

type Figure = "n" | "mean" | "sd" | "min" | "max" | "p50" | "p90" | "p99" | "sum";
type Figures = Partial<Record<Figure, number>>;

interface ExpectedBenchmark {
  /** The tool's benchmark name: the variant is this name, or this name + " [params]". */
  name: string;
  /** Params that must appear in the variant name to tell apart benchmarks of the same name. */
  params?: Record<string, string>;
  /** One entry per repetition (= stored run), in order: metric key → figures. */
  runs: Record<string, Figures>[];
  /** A number the tool printed for the whole benchmark: the (n-weighted) mean of the runs' means. */
  aggregate?: { metric: string; value: number; weighted: boolean; what: string };
}

const num = (value: unknown) => (typeof value === "number" ? value : Number(value));

function expectJmh(text: string): ExpectedBenchmark[] {
  const results = JSON.parse(text) as {
    benchmark: string; mode: string; params?: Record<string, string>;
    primaryMetric: { score: number | string; rawData?: (number | string)[][]; rawDataHistogram?: [number, number][][][] };
    secondaryMetrics?: Record<string, { rawData?: (number | string)[][] }>;
  }[];
  return results.map((result) => {
    const primary = result.primaryMetric;
    const forks: { n: number; mean: number }[] = primary.rawDataHistogram
      ? primary.rawDataHistogram.map((iterations) => {
        const buckets = iterations.flat();
        const n = buckets.reduce((a, [, count]) => a + count, 0);
        return { n, mean: buckets.reduce((a, [value, count]) => a + value * count, 0) / n };
      })
      : (primary.rawData ?? []).map((scores) => ({ n: scores.length, mean: mean(scores.map(num)) }));
    const norm = result.secondaryMetrics?.["gc.alloc.rate.norm"] ?? result.secondaryMetrics?.["·gc.alloc.rate.norm"];
    return {
      name: result.benchmark,
      params: result.params,
      runs: forks.map((fork, f) => ({
        score: { n: fork.n, mean: fork.mean },
        ...(norm?.rawData?.[f] ? { "gc.alloc.rate.norm": { mean: mean(norm.rawData[f].map(num)) } } : {}),
      })),
      // JMH's score is the mean over every iteration (or every sample) of every fork.
      aggregate: { metric: "score", value: num(primary.score), weighted: true, what: `JMH score of ${result.benchmark}` },
    };
  });
}

function expectGobench(text: string): ExpectedBenchmark[] {
  // `go test -json` events: their Output fields concatenate to the text output.
  const output = text.trimStart().startsWith("{")
    ? text.split("\n").filter((line) => line.trim()).map((line) => JSON.parse(line) as { Action: string; Output?: string }).filter((e) => e.Action === "output").map((e) => e.Output ?? "").join("")
    : text;
  const benchmarks = new Map<string, ExpectedBenchmark>();
  for (const line of output.split("\n")) {
    const match = /^(Benchmark\S*)\s+(\d+)\s+(\d.*)$/.exec(line.trim());
    if (!match) continue;
    const [, fullName, iterations, rest] = match as unknown as [string, string, string, string];
    const procs = /^(.*)-(\d+)$/.exec(fullName);
    const name = procs ? (procs[1] as string) : fullName;
    const fields = rest.trim().split(/\s+/);
    const run: Record<string, Figures> = {};
    for (let i = 0; i + 1 < fields.length; i += 2) run[fields[i + 1] as string] = { n: Number(iterations), mean: Number(fields[i]) };
    const benchmark = benchmarks.get(name) ?? { name, runs: [] };
    benchmark.runs.push(run);
    benchmarks.set(name, benchmark);
  }
  return [...benchmarks.values()];
}

function expectHyperfine(text: string): ExpectedBenchmark[] {
  const { results } = JSON.parse(text) as { results: { command: string; mean: number; stddev: number | null; min: number; max: number; user: number; system: number; times?: number[]; parameters?: Record<string, string | number> }[] };
  return results.map((r) => ({
    name: r.command,
    params: r.parameters ? Object.fromEntries(Object.entries(r.parameters).map(([k, v]) => [k, String(v)])) : undefined,
    runs: [{
      // Stored figures come from the per-run times; hyperfine printed mean/stddev/min/max.
      wall_time: { n: r.times?.length ?? 0, mean: r.mean, min: r.min, max: r.max, ...(r.stddev !== null && (r.times?.length ?? 0) > 1 ? { sd: r.stddev } : {}) },
      user_s: { mean: r.user },
      system_s: { mean: r.system },
    }],
  }));
}

function expectPytest(text: string): ExpectedBenchmark[] {
  const { benchmarks } = JSON.parse(text) as { benchmarks: { name: string; params?: Record<string, unknown> | null; stats: { rounds: number; mean: number; stddev: number; min: number; max: number; median: number; data?: number[] } }[] };
  return benchmarks.map((b) => ({
    name: b.name,
    params: b.params ? Object.fromEntries(Object.entries(b.params).map(([k, v]) => [k, String(v)])) : undefined,
    runs: [{ time: { n: b.stats.rounds, mean: b.stats.mean, min: b.stats.min, max: b.stats.max, ...(b.stats.rounds > 1 ? { sd: b.stats.stddev } : {}), ...(b.stats.data ? {} : { p50: b.stats.median }) } }],
  }));
}

function expectGoogleBenchmark(text: string): ExpectedBenchmark[] {
  const { benchmarks: rows } = JSON.parse(text.replace(/(:\s*)-?(?:NaN|Infinity)(?=\s*[,}\]])/g, "$1null")) as { benchmarks: { name: string; run_name?: string; run_type?: string; aggregate_name?: string; repetition_index?: number; iterations: number; real_time: number; cpu_time: number; error_occurred?: boolean }[] };
  const groups = new Map<string, typeof rows>();
  for (const row of rows) {
    if (row.run_type === "aggregate" || row.aggregate_name !== undefined || row.error_occurred) continue;
    const name = row.run_name ?? row.name;
    groups.set(name, [...(groups.get(name) ?? []), row]);
  }
  return [...groups.entries()].map(([name, reps]) => {
    const meanRow = rows.find((row) => (row.run_name ?? row.name) === name && row.aggregate_name === "mean");
    return {
      name,
      runs: [...reps].sort((a, b) => (a.repetition_index ?? 0) - (b.repetition_index ?? 0)).map((row) => ({
        real_time: { n: row.iterations, mean: row.real_time },
        cpu_time: { n: row.iterations, mean: row.cpu_time },
      })),
      ...(meanRow ? { aggregate: { metric: "real_time", value: meanRow.real_time, weighted: false, what: `Google Benchmark's ${meanRow.name}` } } : {}),
    };
  });
}

function expectCriterion(text: string): ExpectedBenchmark[] {
  type Entry = { sample: { iters: number[]; times: number[] }; estimates?: { mean: { point_estimate: number }; slope?: { point_estimate: number } | null }; benchmark?: { full_id: string; value_str?: string | null } };
  const document = JSON.parse(text) as Record<string, unknown>;
  const one = (name: string, entry: Entry): ExpectedBenchmark => {
    const perIteration = entry.sample.times.map((t, i) => t / (entry.sample.iters[i] as number));
    return {
      name,
      params: entry.benchmark?.value_str ? { input: entry.benchmark.value_str } : undefined,
      runs: [{
        time: { n: perIteration.length, mean: entry.estimates ? entry.estimates.mean.point_estimate : mean(perIteration), min: Math.min(...perIteration), max: Math.max(...perIteration) },
        ...(entry.estimates?.slope ? { time_slope: { mean: entry.estimates.slope.point_estimate } } : {}),
      }],
    };
  };
  if ("iters" in document) return [one("criterion", { sample: document as Entry["sample"] })];
  if ("sample" in document) return [one((document as Entry).benchmark?.full_id ?? "criterion", document as Entry)];
  return Object.entries(document as Record<string, Entry>).map(([id, entry]) => one(id, entry));
}

function expectK6(text: string): ExpectedBenchmark[] {
  if (text.trimStart().startsWith("{")) {
    const { metrics } = JSON.parse(text) as { metrics: Record<string, Record<string, number>> };
    const d = metrics.http_req_duration as Record<string, number>;
    const reqs = metrics.http_reqs as Record<string, number>;
    return [{
      name: "k6",
      runs: [{
        http_req_duration: { mean: d.avg as number, min: d.min as number, max: d.max as number, p50: d.med as number, p90: d["p(90)"] as number },
        http_reqs: { mean: reqs.rate as number, sum: reqs.count as number },
      }],
    }];
  }
  const lines = text.trim().split("\n");
  const header = (lines[0] as string).split(",");
  const col = (name: string) => header.indexOf(name);
  const scenarios = new Map<string, { durations: number[]; iterations: number[]; received: number }>();
  for (const line of lines.slice(1)) {
    const cells = line.split(",");
    const metricName = cells[col("metric_name")] as string;
    // Only the metrics checked here: others (vus, vus_max) carry no scenario tag.
    if (!["http_req_duration", "iteration_duration", "data_received"].includes(metricName)) continue;
    const scenario = cells[col("scenario")] || "default";
    const data = scenarios.get(scenario) ?? { durations: [], iterations: [], received: 0 };
    const value = Number(cells[col("metric_value")]);
    if (metricName === "http_req_duration") data.durations.push(value);
    if (metricName === "iteration_duration") data.iterations.push(value);
    if (metricName === "data_received") data.received += value;
    scenarios.set(scenario, data);
  }
  return [...scenarios.entries()].map(([scenario, data]) => ({
    name: scenarios.size === 1 ? "k6" : scenario,
    runs: [{
      http_req_duration: { n: data.durations.length, mean: mean(data.durations), min: Math.min(...data.durations), max: Math.max(...data.durations) },
      iteration_duration: { n: data.iterations.length, mean: mean(data.iterations) },
      data_received: { mean: data.received },
    }],
  }));
}

function expectWrk(text: string): ExpectedBenchmark[] {
  const ms = (token: string) => {
    const m = /^([\d.]+)(us|ms|s|m|h)$/.exec(token) as RegExpExecArray;
    return Number(m[1]) * { us: 1e-3, ms: 1, s: 1e3, m: 60e3, h: 3600e3 }[m[2] as "us"];
  };
  const benchmarks = new Map<string, ExpectedBenchmark>();
  for (const block of text.split(/^(?=Running )/m).filter((b) => b.startsWith("Running "))) {
    const url = (/^Running \S+ test @ (\S+)/.exec(block) as RegExpExecArray)[1] as string;
    const latency = (/^\s*Latency\s+(\S+)\s+(\S+)\s+(\S+)/m.exec(block) as RegExpExecArray).slice(1).map(ms);
    const percentile = (p: string) => ms((new RegExp(`^\\s*${p}%\\s+(\\S+)`, "m").exec(block) as RegExpExecArray)[1] as string);
    const requests = Number((/(\d+) requests in/.exec(block) as RegExpExecArray)[1]);
    const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(block);
    const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(block);
    const errors = (socket ? socket.slice(1).reduce((a, v) => a + Number(v), 0) : 0) + (non2xx ? Number(non2xx[1]) : 0);
    const run: Record<string, Figures> = {
      latency: { n: requests, mean: latency[0] as number, sd: latency[1] as number, max: latency[2] as number, p50: percentile("50"), p90: percentile("90"), p99: percentile("99") },
      requests_per_sec: { mean: Number((/Requests\/sec:\s+([\d.]+)/.exec(block) as RegExpExecArray)[1]) },
      errors: { mean: errors },
    };
    const benchmark = benchmarks.get(url) ?? { name: url, runs: [] };
    benchmark.runs.push(run);
    benchmarks.set(url, benchmark);
  }
  return [...benchmarks.values()];
}

function expectNgrinder(text: string): ExpectedBenchmark[] {
  const lines = text.trim().split(/\r?\n/);
  const header = (lines[0] as string).split(",");
  const rows = lines.slice(1).map((line) => line.split(","));
  const column = (name: string, from = 0) => header.indexOf(name, from);
  const figures = (tests: number, errors: number, tps: number) => {
    const tpsValues = rows.map((row) => Number(row[tps]));
    return {
      tps: { n: rows.length, mean: mean(tpsValues), max: Math.max(...tpsValues) },
      tests: { mean: rows.reduce((a, row) => a + Number(row[tests]), 0) },
      errors: { mean: rows.reduce((a, row) => a + Number(row[errors]), 0) },
    };
  };
  const benchmarks: ExpectedBenchmark[] = [{ name: "ngrinder", runs: [figures(column("Tests"), column("Errors"), column("TPS"))] }];
  header.forEach((cell, index) => {
    if (cell !== "Description") return;
    const test = index + 1 < header.length ? /^Tests-(\d+)$/.exec(header[index + 1] as string)?.[1] : undefined;
    if (!test) return;
    benchmarks.push({ name: (rows[0] as string[])[index] as string, runs: [figures(column(`Tests-${test}`), column(`Errors-${test}`), column(`TPS-${test}`))] });
  });
  return benchmarks;
}

function expectCsv(text: string): ExpectedBenchmark[] {
  const lines = text.trim().split(/\r?\n/);
  const header = (lines[0] as string).split(",").map((cell) => cell.trim());
  const special = (cell: string) => ["variant", "benchmark", "repetition", "timestamp", "started_at"].includes(cell.toLowerCase());
  const group = header.findIndex((cell) => ["variant", "benchmark"].includes(cell.toLowerCase()));
  const repetition = header.findIndex((cell) => cell.toLowerCase() === "repetition");
  const keys = header.map((cell) => (special(cell) ? undefined : cell.replace(/\s*(↓|↑|:lower|:higher)\s*$/i, "").replace(/\s*(\[[^\]]*\]|\([^)]*\))\s*$/, "").trim()));
  const benchmarks = new Map<string, { order: number; run: Record<string, Figures> }[]>();
  lines.slice(1).forEach((line, index) => {
    const cells = line.split(",");
    const name = group >= 0 ? (cells[group] as string) : "default";
    const run: Record<string, Figures> = {};
    keys.forEach((key, i) => {
      if (key && cells[i]?.trim()) run[metricKey(key)] = { n: 1, mean: Number(cells[i]) };
    });
    benchmarks.set(name, [...(benchmarks.get(name) ?? []), { order: repetition >= 0 ? Number(cells[repetition]) : index, run }]);
  });
  return [...benchmarks.entries()].map(([name, runs]) => ({ name, runs: runs.sort((a, b) => a.order - b.order).map((r) => r.run) }));
}

const expectations: Record<string, (text: string) => ExpectedBenchmark[]> = {
  jmh: expectJmh,
  gobench: expectGobench,
  hyperfine: expectHyperfine,
  "pytest-benchmark": expectPytest,
  "google-benchmark": expectGoogleBenchmark,
  criterion: expectCriterion,
  k6: expectK6,
  wrk: expectWrk,
  ngrinder: expectNgrinder,
  csv: expectCsv,
};

/** The stored variant of an expected benchmark: its name, or its name + " [k=v, …]". */
function variantOf(experiment: StoredExperiment, benchmark: ExpectedBenchmark) {
  const candidates = experiment.variants.filter((v) => {
    if (v.name !== benchmark.name && !v.name.startsWith(`${benchmark.name} [`)) return false;
    return Object.entries(benchmark.params ?? {}).every(([key, value]) => benchmark.name.includes(`${key}=${value}`) || new RegExp(`[\\[ ]${key}=${value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}[,\\]]`).test(v.name));
  });
  expect(candidates.map((v) => v.name), `variant for benchmark "${benchmark.name}" ${JSON.stringify(benchmark.params ?? {})} among ${experiment.variants.map((v) => v.name).join(" | ")}`).toHaveLength(1);
  return candidates[0] as StoredExperiment["variants"][number];
}

function resultOf(run: StoredRun, key: string) {
  // A key whose benchmarks disagree on the unit is stored once per unit ("score:ops/ms").
  const result = run.results.find((r) => r.metric.key === key) ?? run.results.find((r) => r.metric.key.startsWith(`${key}:`) && r.metric.unit === r.metric.key.slice(key.length + 1));
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
    expect(runs.map((run) => run.repetition), `repetitions of "${variant.name}"`).toEqual(benchmark.runs.map((_, i) => i));
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
      () => POST(new Request("http://test.local/api/v1/imports?format=wrk&experiment=x&create=true", { method: "POST", headers: { authorization: `Bearer ${apiKey}`, "content-length": "100000000" }, body: wrk() })),
      413, "PAYLOAD_TOO_LARGE",
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
      const body = await refusedBody(() => postImport({ format: "criterion", experiment: slugFor("estimates"), create: "true" }, fs.readFileSync(estimates, "utf8")), 422, "UNPROCESSABLE");
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
      expect(candidates.map((m) => m.label || m.key), `ns/op metric of ${benchmark.name}`).toHaveLength(1);
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
    const body = await refusedBody(() => postImport({ format: "gobench", experiment: slugFor("no-variant"), create: "true", split: "metric" }, gobenchText()), 400, "BAD_REQUEST");
    expect(fieldPaths(body)).toEqual(["variant"]);
  });

  it("one variant for a file of several benchmarks with split=variant → 400 explaining the options", async () => {
    const body = await refusedBody(() => postImport({ format: "gobench", experiment: slugFor("one-variant"), create: "true", split: "variant", variant: "go" }, gobenchText()), 400, "BAD_REQUEST");
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
    const body = await refusedBody(() => postImport({ format: "wrk", experiment: experimentSlug, create: "true", variant: "other" }, text, { "idempotency-key": key }), 409, "CONFLICT");
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
    const body = await refusedBody(() => postImport({ format: "jmh", experiment: slugFor("wrong"), create: "true" }, readFixture(file as string)), 422, "UNPROCESSABLE");
    expect(body.error.message).toMatch(/^Not valid jmh output: /);
    expect(body.error.message).toContain("this looks like hyperfine JSON");
  });

  it("wrk text as gobench", async () => {
    const file = fixtureFiles("wrk")[0];
    expect(file).toBeDefined();
    const body = await refusedBody(() => postImport({ format: "gobench", experiment: slugFor("wrong"), create: "true" }, readFixture(file as string)), 422, "UNPROCESSABLE");
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
