// Importer for Criterion.rs's JSON files, which it writes per benchmark under
// target/criterion/<benchmark>/new/: sample.json ({"sampling_mode", "iters": […], "times": […]},
// times in ns per batch of iters iterations), estimates.json (mean, median, std_dev,
// median_abs_dev and, in linear sampling mode, slope: each a point estimate with a bootstrap
// confidence interval) and benchmark.json (group_id, function_id, value_str, throughput, full_id).
//
// Accepted bodies:
//   1. A bundle of benchmarks: { "<benchmark id>": { "sample": <sample.json>,
//      "estimates"?: <estimates.json>, "benchmark"?: <benchmark.json> }, … }
//      (fixtures/criterion/produce.sh builds one with jq from Criterion's files)
//   2. One such entry on its own: { "sample": …, "estimates"?: …, "benchmark"?: … }
//   3. sample.json on its own (benchmark name "criterion")
// estimates.json alone is refused: it holds no sample count, and a summary needs one.
//
// Metrics of each benchmark (one repetition):
//   time        ns/iteration, lower: samples = times[i] / iters[i]; summary = Criterion's mean,
//               median and std_dev point estimates (the mean is checked against the samples')
//   time_slope  ns, lower: Criterion's headline estimate in linear mode (the regression slope), as the run's value
//   throughput  B/s or elem/s, higher: when benchmark.json declares a throughput; samples are each
//               sample's rate, the run's value is the work per iteration ÷ the mean time
import { z } from "zod";
import { describeIssues, foreignHint, parseJsonBody } from "./body-checks";
import { countIssue, extent, mean } from "./numeric-cells";
import type { ImportedBenchmark, ImportedMetric, Importer } from "./types";
import { ImportFormatError } from "./types";

const FORMAT = "criterion";

const finite = z.number({ error: "must be a finite number" });

const ZSample = z
  .object({
    sampling_mode: z.string().optional(),
    iters: z
      .array(finite.positive("iteration counts must be positive").int({ error: (issue) => `iteration counts ${countIssue(issue)}` }))
      .min(1, "iters is empty"),
    times: z.array(finite.min(0, "times cannot be negative")).min(1, "times is empty"),
  })
  .refine((s) => s.iters.length === s.times.length, { message: "iters and times differ in length", path: ["times"] });

const ZEstimate = z.object({
  confidence_interval: z.object({ confidence_level: finite, lower_bound: finite, upper_bound: finite }),
  point_estimate: finite,
  standard_error: finite,
});

const ZEstimates = z.object({
  mean: ZEstimate,
  median: ZEstimate,
  std_dev: ZEstimate,
  median_abs_dev: ZEstimate.optional(),
  slope: ZEstimate.nullish(),
});

const amount = finite.int().positive();
const ZBenchmark = z.object({
  group_id: z.string(),
  function_id: z.string().nullish(),
  value_str: z.string().nullish(),
  throughput: z.union([z.object({ Bytes: amount }), z.object({ BytesDecimal: amount }), z.object({ Elements: amount })]).nullish(),
  full_id: z.string(),
});

const ZEntry = z.object({ sample: ZSample, estimates: ZEstimates.optional(), benchmark: ZBenchmark.optional() });
type Entry = z.output<typeof ZEntry>;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function parseWith<T extends z.ZodType>(schema: T, value: unknown, what: string): z.output<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new ImportFormatError(FORMAT, `${what} is not valid: ${describeIssues(parsed.error)}`);
  return parsed.data;
}

/** "1234.5678" → "1234.6": short numbers for labels (which are limited to 100 characters). */
const short = (n: number) => Number(n.toPrecision(5)).toString();

function timeMetrics(entry: Entry, name: string): ImportedMetric[] {
  const { sample, estimates, benchmark } = entry;
  const samples = sample.times.map((t, i) => t / (sample.iters[i] ?? 1));
  const sampleMean = mean(samples);
  const time: ImportedMetric = {
    key: "time",
    unit: "ns",
    direction: "lower_is_better",
    label: "Time per iteration",
    samples,
    summary: { n: samples.length, mean: sampleMean, ...extent(samples) },
  };
  const metrics = [time];
  if (estimates) {
    // Criterion's mean estimate is the plain mean of times/iters: a mismatch means the two files
    // come from different runs (e.g. an old estimates.json next to a new sample.json).
    const reported = estimates.mean.point_estimate;
    if (Math.abs(reported - sampleMean) > 1e-9 * Math.max(1, Math.abs(reported))) {
      throw new ImportFormatError(
        FORMAT,
        `${name}: estimates.json's mean (${reported} ns) is not the mean of sample.json (${sampleMean} ns); are they from the same run?`,
      );
    }
    const ci = estimates.mean.confidence_interval;
    time.label = `Time per iteration (mean ${Math.round(ci.confidence_level * 100)}% CI ${short(ci.lower_bound)}–${short(ci.upper_bound)} ns)`;
    time.summary = { ...time.summary, n: samples.length, mean: reported, sd: estimates.std_dev.point_estimate, p50: estimates.median.point_estimate };
    if (estimates.slope) {
      const s = estimates.slope.confidence_interval;
      // A regression slope over the samples, not the mean of any of them: the run's value.
      metrics.push({
        key: "time_slope",
        unit: "ns",
        direction: "lower_is_better",
        label: `Slope: Criterion's headline time (CI ${short(s.lower_bound)}–${short(s.upper_bound)} ns)`,
        value: estimates.slope.point_estimate,
      });
    }
  }
  const throughput = benchmark?.throughput;
  if (throughput) {
    const [kind, perIteration] = Object.entries(throughput)[0] ?? ["Elements", 0];
    const values = samples.filter((ns) => ns > 0).map((ns) => (perIteration * 1e9) / ns);
    if (values.length > 0) {
      // The samples are per-sample rates; the run's rate is the work per iteration ÷ its mean time
      // (as Criterion reports it), which their mean is not.
      metrics.push({
        key: "throughput",
        unit: kind === "Elements" ? "elem/s" : "B/s",
        direction: "higher_is_better",
        label: `Throughput (${perIteration} ${kind === "Elements" ? "elements" : "bytes"} per iteration)`,
        samples: values,
        value: (perIteration * 1e9) / (estimates?.mean.point_estimate ?? sampleMean),
      });
    }
  }
  return metrics;
}

function toBenchmark(name: string, entry: Entry): ImportedBenchmark {
  const value = entry.benchmark?.value_str;
  return { name, ...(value ? { params: { input: value } } : {}), repetitions: [{ metrics: timeMetrics(entry, name) }] };
}

function describeSingleFile(document: Record<string, unknown>): string | undefined {
  if ("point_estimate" in (isObject(document.mean) ? document.mean : {}) && !("sample" in document)) {
    return 'this is Criterion\'s estimates.json alone, which has no sample count: send sample.json, or a bundle {"<id>": {"estimates": …, "sample": …}}';
  }
  if ("full_id" in document && "group_id" in document) {
    return 'this is Criterion\'s benchmark.json alone: send sample.json, or a bundle {"<id>": {"benchmark": …, "sample": …}}';
  }
  return undefined;
}

export const importCriterion: Importer = (body) => {
  const document = parseJsonBody(FORMAT, body);
  if (!isObject(document)) {
    throw new ImportFormatError(
      FORMAT,
      `expected a JSON object (Criterion's sample.json or a bundle of benchmarks) but found ${Array.isArray(document) ? "an array" : typeof document}${foreignHint(body)}`,
    );
  }
  const refusal = describeSingleFile(document);
  if (refusal) throw new ImportFormatError(FORMAT, refusal);

  if ("iters" in document || "times" in document) {
    const sample = parseWith(ZSample, document, "sample.json");
    return { format: FORMAT, benchmarks: [toBenchmark("criterion", { sample })] };
  }
  if (isObject(document.sample) && "iters" in document.sample) {
    const entry = parseWith(ZEntry, document, "the benchmark");
    return { format: FORMAT, benchmarks: [toBenchmark(entry.benchmark?.full_id ?? "criterion", entry)] };
  }
  const entries = Object.entries(document);
  const looksLikeBundle = entries.length > 0 && entries.every(([, value]) => isObject(value) && "sample" in value);
  if (!looksLikeBundle) {
    throw new ImportFormatError(
      FORMAT,
      `expected Criterion's sample.json or a bundle {"<benchmark id>": {"sample": …, "estimates": …}}, but found keys ${
        entries
          .slice(0, 4)
          .map(([k]) => `"${k}"`)
          .join(", ") || "(none)"
      }${foreignHint(body)}`,
    );
  }
  const benchmarks = entries.map(([id, value]) => toBenchmark(id, parseWith(ZEntry, value, `benchmark "${id}"`)));
  return { format: FORMAT, benchmarks };
};
