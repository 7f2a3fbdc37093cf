// What each tool printed, read from its real output under server/importers/fixtures/<format>/ by
// small readers written independently of the importers under test. Shared by the import tests
// (what is stored per run) and the read-back tests (what the comparison answers for it).
import fs from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import { importFormats } from "~/server/schemas/import-formats";
import { metricKey } from "~/server/importers/to-upload";

export const FIXTURES = path.resolve(import.meta.dirname, "../server/importers/fixtures");
/** Tool output files; the folders also hold the scripts and sources that produced them. */
const DATA_FILE = /\.(json|jsonl|txt|csv|out|log)$/;

export function fixtureFiles(format: string): string[] {
  const dir = path.join(FIXTURES, format);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => DATA_FILE.test(name) && fs.statSync(path.join(dir, name)).isFile())
    .sort()
    .map((name) => `${format}/${name}`);
}
export const readFixture = (file: string) => fs.readFileSync(path.join(FIXTURES, file), "utf8");

/** Formats with an importer and at least one fixture file. */
export const formatsWithFixtures = importFormats.filter((format) => fixtureFiles(format).length > 0);

export const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

/** A stored figure; "value" is the run's explicit value (what it contributes to comparisons). */
export type Figure = "n" | "mean" | "sd" | "min" | "max" | "p50" | "p90" | "p99" | "sum" | "value";
export type Figures = Partial<Record<Figure, number>>;

export interface ExpectedBenchmark {
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

export function expectJmh(text: string): ExpectedBenchmark[] {
  const results = JSON.parse(text) as {
    benchmark: string;
    mode: string;
    params?: Record<string, string>;
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

export function expectGobench(text: string): ExpectedBenchmark[] {
  // `go test -json` events: their Output fields concatenate to the text output.
  const output = text.trimStart().startsWith("{")
    ? text
        .split("\n")
        .filter((line) => line.trim())
        .map((line) => JSON.parse(line) as { Action: string; Output?: string })
        .filter((e) => e.Action === "output")
        .map((e) => e.Output ?? "")
        .join("")
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
    // A rate (a unit ending in /s) is the line's value; per-op figures are means over its iterations.
    for (let i = 0; i + 1 < fields.length; i += 2) {
      const unit = fields[i + 1] as string;
      run[unit] = unit.endsWith("/s") ? { value: Number(fields[i]) } : { n: Number(iterations), mean: Number(fields[i]) };
    }
    const benchmark = benchmarks.get(name) ?? { name, runs: [] };
    benchmark.runs.push(run);
    benchmarks.set(name, benchmark);
  }
  return [...benchmarks.values()];
}

export function expectHyperfine(text: string): ExpectedBenchmark[] {
  const { results } = JSON.parse(text) as {
    results: {
      command: string;
      mean: number;
      stddev: number | null;
      min: number;
      max: number;
      user: number;
      system: number;
      times?: number[];
      parameters?: Record<string, string | number>;
    }[];
  };
  return results.map((r) => ({
    name: r.command,
    params: r.parameters ? Object.fromEntries(Object.entries(r.parameters).map(([k, v]) => [k, String(v)])) : undefined,
    runs: [
      {
        // Stored figures come from the per-run times; hyperfine printed mean/stddev/min/max.
        wall_time: {
          n: r.times?.length ?? 0,
          mean: r.mean,
          min: r.min,
          max: r.max,
          ...(r.stddev !== null && (r.times?.length ?? 0) > 1 ? { sd: r.stddev } : {}),
        },
        user_s: { mean: r.user },
        system_s: { mean: r.system },
      },
    ],
  }));
}

export function expectPytest(text: string): ExpectedBenchmark[] {
  const { benchmarks } = JSON.parse(text) as {
    benchmarks: {
      name: string;
      params?: Record<string, unknown> | null;
      stats: { rounds: number; mean: number; stddev: number; min: number; max: number; median: number; data?: number[] };
    }[];
  };
  return benchmarks.map((b) => ({
    name: b.name,
    params: b.params ? Object.fromEntries(Object.entries(b.params).map(([k, v]) => [k, String(v)])) : undefined,
    runs: [
      {
        time: {
          n: b.stats.rounds,
          mean: b.stats.mean,
          min: b.stats.min,
          max: b.stats.max,
          ...(b.stats.rounds > 1 ? { sd: b.stats.stddev } : {}),
          ...(b.stats.data ? {} : { p50: b.stats.median }),
        },
      },
    ],
  }));
}

export function expectGoogleBenchmark(text: string): ExpectedBenchmark[] {
  const { benchmarks: rows } = JSON.parse(text.replace(/(:\s*)-?(?:NaN|Infinity)(?=\s*[,}\]])/g, "$1null")) as {
    benchmarks: {
      name: string;
      run_name?: string;
      run_type?: string;
      aggregate_name?: string;
      repetition_index?: number;
      iterations: number;
      real_time: number;
      cpu_time: number;
      error_occurred?: boolean;
    }[];
  };
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
      runs: [...reps]
        .sort((a, b) => (a.repetition_index ?? 0) - (b.repetition_index ?? 0))
        .map((row) => ({
          real_time: { n: row.iterations, mean: row.real_time },
          cpu_time: { n: row.iterations, mean: row.cpu_time },
        })),
      ...(meanRow ? { aggregate: { metric: "real_time", value: meanRow.real_time, weighted: false, what: `Google Benchmark's ${meanRow.name}` } } : {}),
    };
  });
}

export function expectCriterion(text: string): ExpectedBenchmark[] {
  type Entry = {
    sample: { iters: number[]; times: number[] };
    estimates?: { mean: { point_estimate: number }; slope?: { point_estimate: number } | null };
    benchmark?: { full_id: string; value_str?: string | null };
  };
  const document = JSON.parse(text) as Record<string, unknown>;
  const one = (name: string, entry: Entry): ExpectedBenchmark => {
    const perIteration = entry.sample.times.map((t, i) => t / (entry.sample.iters[i] as number));
    return {
      name,
      params: entry.benchmark?.value_str ? { input: entry.benchmark.value_str } : undefined,
      runs: [
        {
          time: {
            n: perIteration.length,
            mean: entry.estimates ? entry.estimates.mean.point_estimate : mean(perIteration),
            min: Math.min(...perIteration),
            max: Math.max(...perIteration),
          },
          ...(entry.estimates?.slope ? { time_slope: { mean: entry.estimates.slope.point_estimate } } : {}),
        },
      ],
    };
  };
  if ("iters" in document) return [one("criterion", { sample: document as Entry["sample"] })];
  if ("sample" in document) return [one((document as Entry).benchmark?.full_id ?? "criterion", document as Entry)];
  return Object.entries(document as Record<string, Entry>).map(([id, entry]) => one(id, entry));
}

export function expectK6(text: string): ExpectedBenchmark[] {
  if (text.trimStart().startsWith("{")) {
    const { metrics } = JSON.parse(text) as { metrics: Record<string, Record<string, number>> };
    const d = metrics.http_req_duration as Record<string, number>;
    const reqs = metrics.http_reqs as Record<string, number>;
    return [
      {
        name: "k6",
        runs: [
          {
            http_req_duration: { mean: d.avg as number, min: d.min as number, max: d.max as number, p50: d.med as number, p90: d["p(90)"] as number },
            http_reqs: { value: reqs.rate as number },
          },
        ],
      },
    ];
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
    runs: [
      {
        http_req_duration: { n: data.durations.length, mean: mean(data.durations), min: Math.min(...data.durations), max: Math.max(...data.durations) },
        iteration_duration: { n: data.iterations.length, mean: mean(data.iterations) },
        data_received: { mean: data.received },
      },
    ],
  }));
}

export function expectWrk(text: string): ExpectedBenchmark[] {
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
      latency: {
        n: requests,
        mean: latency[0] as number,
        sd: latency[1] as number,
        max: latency[2] as number,
        p50: percentile("50"),
        p90: percentile("90"),
        p99: percentile("99"),
      },
      requests_per_sec: { value: Number((/Requests\/sec:\s+([\d.]+)/.exec(block) as RegExpExecArray)[1]) },
      errors: { mean: errors },
    };
    const benchmark = benchmarks.get(url) ?? { name: url, runs: [] };
    benchmark.runs.push(run);
    benchmarks.set(url, benchmark);
  }
  return [...benchmarks.values()];
}

export function expectNgrinder(text: string): ExpectedBenchmark[] {
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
    benchmarks.push({
      name: (rows[0] as string[])[index] as string,
      runs: [figures(column(`Tests-${test}`), column(`Errors-${test}`), column(`TPS-${test}`))],
    });
  });
  return benchmarks;
}

export function expectCsv(text: string): ExpectedBenchmark[] {
  const lines = text.trim().split(/\r?\n/);
  const header = (lines[0] as string).split(",").map((cell) => cell.trim());
  const special = (cell: string) => ["variant", "benchmark", "repetition", "timestamp", "started_at"].includes(cell.toLowerCase());
  const group = header.findIndex((cell) => ["variant", "benchmark"].includes(cell.toLowerCase()));
  const repetition = header.findIndex((cell) => cell.toLowerCase() === "repetition");
  const keys = header.map((cell) =>
    special(cell)
      ? undefined
      : cell
          .replace(/\s*(↓|↑|:lower|:higher)\s*$/i, "")
          .replace(/\s*(\[[^\]]*\]|\([^)]*\))\s*$/, "")
          .trim(),
  );
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

export const expectations: Record<string, (text: string) => ExpectedBenchmark[]> = {
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

/**
 * Which of the variant names an import made (one per benchmark) is this expected benchmark's: its
 * name, or its name + " [k=v, …]" with its params.
 */
export function variantNameOf(names: readonly string[], benchmark: ExpectedBenchmark): string {
  const candidates = names.filter((name) => {
    if (name !== benchmark.name && !name.startsWith(`${benchmark.name} [`)) return false;
    return Object.entries(benchmark.params ?? {}).every(
      ([key, value]) =>
        benchmark.name.includes(`${key}=${value}`) || new RegExp(`[\\[ ]${key}=${value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}[,\\]]`).test(name),
    );
  });
  expect(candidates, `variant for benchmark "${benchmark.name}" ${JSON.stringify(benchmark.params ?? {})} among ${names.join(" | ")}`).toHaveLength(1);
  return candidates[0] as string;
}
