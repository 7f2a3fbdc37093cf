// Turns one uploaded metric of one run into the rows we store: summary figures, histogram,
// compact samples, time series. Pure CPU work, done before the database transaction opens, after
// one look-up of the histogram scales the experiment's earlier runs used (histogramScales).
import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { preparedQuery } from "../db/prepared-statements";
import { AppError, type FieldIssue } from "../core/errors";
import type { TRunMetricToStore } from "../schemas/results";
import { summaryContradictions } from "../schemas/summary-rules";
import { histogramFigures } from "./histogram";
import { encodeSamplesAsync, float64FromBase64 } from "./sample-codec";
import { summarizeSamples, type SampleSummary } from "./summarize-samples";

export interface PreparedMetric {
  key: string;
  result: {
    n: bigint;
    mean: number;
    sd: number | null;
    min: number | null;
    max: number | null;
    p50: number | null;
    p90: number | null;
    p95: number | null;
    p99: number | null;
    p999: number | null;
    sum: number | null;
    /** What the run contributes to comparisons, when the producer gave it (the metric's `value`). */
    value: number | null;
    histogram: Uint8Array<ArrayBuffer> | null;
    histogramScale: number | null;
    samples: Uint8Array<ArrayBuffer> | null;
  };
  timeSeries?: { startedAt: Date; offsetsMs: number[]; values: number[] };
}

const bad = (path: (string | number)[], message: string) => {
  const issue: FieldIssue = { path, message };
  return new AppError("BAD_REQUEST", `Invalid input — ${path.join(".")}: ${message}`, { fieldIssues: [issue] });
};

/** Whether every value is finite: a plain loop, as `some` with a callback took 6 times as long (a million: 22 ms against 3.6). */
function allFinite(values: Float64Array): boolean {
  for (let i = 0; i < values.length; i++) if (!Number.isFinite(values[i])) return false;
  return true;
}

const bytes = (buffer: Buffer): Uint8Array<ArrayBuffer> =>
  new Uint8Array(buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength) as ArrayBuffer);

/**
 * The histogram scale the earlier runs of metric `metricId` used (NULL when none has one), so new
 * histograms merge with theirs. An indexed look-up that stops at the first result with a scale,
 * not a scan of every result the experiment ever stored (this runs on each upload and each
 * agent's complete).
 */
export const earlierScaleSql = (metricId: Prisma.Sql) => Prisma.sql`
  SELECT r."histogramScale" FROM "RunMetricResult" r
  -- A histogram of zeros only fits any scale, so it does not fix one: the first run of a
  -- plain upload (compress time 0) would otherwise record every later gzip time in whole units.
  WHERE r."metricId" = ${metricId} AND r."histogramScale" IS NOT NULL AND r."max" > 0
  LIMIT 1`;

/** The histogram scale each metric of the experiment used so far (earlierScaleSql). */
async function histogramScales(db: Db, projectId: string, experimentSlug: string): Promise<Map<string, number>> {
  const rows = await preparedQuery<{ key: string; histogramScale: number }>(
    db,
    Prisma.sql`
    SELECT m."key", s."histogramScale"
    FROM "Metric" m JOIN "Experiment" e ON e."id" = m."experimentId"
    CROSS JOIN LATERAL (${earlierScaleSql(Prisma.sql`m."id"`)}) s
    WHERE e."projectId" = ${projectId} AND e."slug" = ${experimentSlug}`,
  );
  return new Map(rows.map((row) => [row.key, row.histogramScale]));
}

/** Whether preparing this metric records a histogram, which needs the scale its earlier runs used. */
export const recordsHistogram = (metric: TRunMetricToStore) => Boolean(metric.samples || metric.samplesBase64 || metric.histogram);

/** Whether preparing these runs records histograms (recordsHistogram). */
export const needsHistogramScales = (runs: { metrics: TRunMetricToStore[] }[]) => runs.some((run) => run.metrics.some(recordsHistogram));

/**
 * Each run's metrics prepared, in request order, merging with the histograms of the experiment's
 * earlier runs (their scales are looked up only when a metric brings values to scale, unless the
 * caller gives them). One metric at a time: each already overlaps its compression with its
 * summary, and holding every run's decoded samples at once would multiply the memory a large
 * upload needs. `runPath` names a run in the request (["runs", 2] in an upload, ["run"] in a
 * complete); a run that does not say when it started started `now`.
 */
export async function prepareRuns(
  db: Db,
  experiment: { projectId: string; slug: string },
  runs: { startedAt?: string; metrics: TRunMetricToStore[] }[],
  runPath: (r: number) => (string | number)[],
  now: Date,
  /** The scales, when the caller read them already (with needsHistogramScales). */
  knownScales?: Map<string, number>,
): Promise<PreparedMetric[][]> {
  const scales = knownScales ?? (needsHistogramScales(runs) ? await histogramScales(db, experiment.projectId, experiment.slug) : new Map<string, number>());
  const prepared: PreparedMetric[][] = [];
  for (const [r, run] of runs.entries()) {
    const startedAt = run.startedAt ? new Date(run.startedAt) : now;
    const metrics: PreparedMetric[] = [];
    for (const [m, metric] of run.metrics.entries()) metrics.push(await prepareMetric(metric, [...runPath(r), "metrics", m], startedAt, scales));
    prepared.push(metrics);
  }
  return prepared;
}

/** `scales`: histogram scale per metric key used so far; updated with the scale chosen here. */
export async function prepareMetric(
  metric: TRunMetricToStore,
  path: (string | number)[],
  runStartedAt: Date,
  scales: Map<string, number>,
): Promise<PreparedMetric> {
  let samples: ArrayLike<number> | undefined = metric.samples;
  if (metric.samplesBase64 !== undefined) {
    const decoded = typeof metric.samplesBase64 === "string" ? float64FromBase64(metric.samplesBase64) : metric.samplesBase64;
    if (!decoded) throw bad([...path, "samplesBase64"], "must be base64 of little-endian float64 values (a multiple of 8 bytes)");
    if (!allFinite(decoded)) throw bad([...path, "samplesBase64"], "contains NaN or Infinity");
    samples = decoded;
  }

  const timeSeries = metric.timeSeries && {
    startedAt: metric.timeSeries.startedAt ? new Date(metric.timeSeries.startedAt) : runStartedAt,
    offsetsMs: metric.timeSeries.offsetsMs ?? metric.timeSeries.values.map((_, i) => i * (metric.timeSeries?.intervalMs ?? 0)),
    values: metric.timeSeries.values,
  };
  if (timeSeries) {
    requireFinite(timeSeries.values, [...path, "timeSeries", "values"], "values");
    requireFinite(timeSeries.offsetsMs, [...path, "timeSeries", metric.timeSeries?.offsetsMs ? "offsetsMs" : "intervalMs"], "offsets");
  }

  if (samples) {
    // Compression runs on the thread pool while this thread builds the summary and histogram.
    const blob = encodeSamplesAsync(samples);
    const s = summarizeSamples(samples, scales.get(metric.key));
    requireFiniteFigures(s, [...path, metric.samplesBase64 !== undefined ? "samplesBase64" : "samples"]);
    if (s.histogramScale !== undefined && !scales.has(metric.key)) scales.set(metric.key, s.histogramScale);
    return {
      key: metric.key,
      timeSeries,
      result: {
        ...figuresOf(s),
        value: metric.value ?? null,
        histogram: s.histogram ? bytes(s.histogram) : null,
        histogramScale: s.histogramScale ?? null,
        samples: bytes(await blob),
      },
    };
  }

  if (metric.summary || metric.histogram) {
    const summary = metric.summary;
    let fromHistogram: Partial<Record<Figure | "n", number>> = {};
    let histogram: Uint8Array<ArrayBuffer> | null = null;
    if (metric.histogram) {
      const figures = (() => {
        try {
          return histogramFigures(metric.histogram, metric.histogramScale ?? 1);
        } catch {
          return null;
        }
      })();
      if (!figures) throw bad([...path, "histogram"], "is not a non-empty HdrHistogram in V2 compressed encoding (base64)");
      fromHistogram = figures;
      histogram = bytes(Buffer.from(metric.histogram, "base64"));
    }
    const n = summary?.n ?? fromHistogram.n;
    const mean = summary?.mean ?? fromHistogram.mean;
    if (n === undefined || mean === undefined) throw bad([...path, "summary"], "is required");
    // A figure the summary gives wins; the histogram fills in the others. A summary without min or
    // max (wrk prints no minimum) and no histogram stores them as unknown: a stand-in such as the
    // smallest percentile would show a number the tool never printed.
    const pick = (figure: Figure) => summary?.[figure] ?? fromHistogram[figure] ?? null;
    const figures = {
      mean,
      sd: pick("sd"),
      min: pick("min"),
      max: pick("max"),
      p50: pick("p50"),
      p90: pick("p90"),
      p95: pick("p95"),
      p99: pick("p99"),
      p999: pick("p999"),
      sum: summary?.sum ?? null,
    };
    // The summary's own figures are finite (its schema says so): one that is not came from the
    // histogram, divided by its scale.
    requireFiniteFigures(figures, [...path, metric.histogram ? "histogramScale" : "summary"]);
    // The schema held the summary to the rules; together with the histogram's figures it must
    // still describe one set of values (a summary's mean above the histogram's maximum does not).
    const [contradiction] = summaryContradictions({ n, ...figures });
    if (contradiction) {
      const own = summary?.[contradiction.field] !== undefined;
      throw bad(
        [...path, ...(own ? ["summary", contradiction.field] : ["histogram"])],
        `${contradiction.message} (the summary's figures with the histogram's)`,
      );
    }
    return {
      key: metric.key,
      timeSeries,
      result: {
        n: BigInt(n),
        ...figures,
        value: metric.value ?? null,
        histogram,
        histogramScale: histogram ? (metric.histogramScale ?? 1) : null,
        samples: null,
      },
    };
  }

  if (!timeSeries) {
    // Only a value (a run's rate, when nothing else of the run was measured): the one value known.
    const value = metric.value as number;
    return {
      key: metric.key,
      result: {
        n: 1n,
        mean: value,
        sd: null,
        min: value,
        max: value,
        p50: null,
        p90: null,
        p95: null,
        p99: null,
        p999: null,
        sum: value,
        value,
        histogram: null,
        histogramScale: null,
        samples: null,
      },
    };
  }
  // A time series (e.g. TPS per second), and no other values: the run's figures describe its points.
  const s = summarizeSamples(timeSeries.values);
  requireFiniteFigures(s, [...path, "timeSeries", "values"]);
  return { key: metric.key, timeSeries, result: { ...figuresOf(s), value: metric.value ?? null, histogram: null, histogramScale: null, samples: null } };
}

type Figure = "mean" | "sd" | "min" | "max" | "p50" | "p90" | "p95" | "p99" | "p999";

const BEYOND = "beyond ±1.8e308, the largest a 64-bit float holds: no measurement is this large";

/**
 * Every figure stored must be a finite number: one that is not would make every comparison of
 * the experiment fail. Refuses the upload, naming the field the figures came from.
 */
function requireFiniteFigures(figures: object, field: (string | number)[]) {
  const infinite = Object.entries(figures)
    .filter(([, value]) => typeof value === "number" && !Number.isFinite(value))
    .map(([figure]) => figure);
  if (infinite.length) throw bad(field, `their ${infinite.join(", ")} would be ${BEYOND}`);
}

function requireFinite(values: number[], field: (string | number)[], what: string) {
  const index = values.findIndex((value) => !Number.isFinite(value));
  if (index >= 0) throw bad(field, `${what} ${index} is ${String(values[index])}, not a finite number`);
}

/** The summary columns of a result row from summarised samples (absent figures stored as null). */
function figuresOf(s: SampleSummary) {
  return {
    n: BigInt(s.n),
    mean: s.mean,
    sd: s.sd ?? null,
    min: s.min,
    max: s.max,
    p50: s.p50 ?? null,
    p90: s.p90 ?? null,
    p95: s.p95 ?? null,
    p99: s.p99 ?? null,
    p999: s.p999 ?? null,
    sum: s.sum,
  };
}
