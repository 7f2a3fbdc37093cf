// How figures, verdicts and times are worded wherever people read them — the experiment page, the
// cross-experiment page, the Markdown report and the CSV summary — so all say the same thing.
// Plain functions, no React: components/ and server/services/ both use them.
import { formatP as formatPValue, formatPercent as formatPercentValue } from "./stats/format";

export const verdictLabel = { better: "better", worse: "worse", no_change: "no significant change", insufficient_data: "not enough data" } as const;

export const directionLabel = { lower_is_better: "lower is better", higher_is_better: "higher is better" } as const;

/** What each run contributes to comparisons under a metric's aggregation (server/services/run-figure.ts's rule). */
export const perRunLabel = (aggregation: string) => `each run's value, else its ${aggregation}`;

// How precisely a figure is written (the comparison tables of the page, the share page and the
// report all follow it):
// - a figure with a spread — mean ± sd, the median with its interval — is rounded at the spread's
//   second significant digit, as physics and JMH-style reports do: "3.08 ± 0.20", "2.890 ± 0.045";
//   the median and its bounds at the nearer bound's distance, so neither bound loses information;
//   the runs' min and max share the median's decimal place (with few runs they are the bounds);
// - percentiles merged from HdrHistograms: 3 significant digits, the histograms' own precision;
// - any other measurement: 4 significant digits (formatMeasure);
// - a change in percent: two decimals; a p-value: three decimals, or two significant digits below 0.001.

const missing = (value: number | null | undefined): value is null | undefined => value === null || value === undefined || !Number.isFinite(value);

/** Outside this range a figure is written with an exponent. */
const everyday = (magnitude: number) => magnitude === 0 || (magnitude >= 1e-4 && magnitude < 1e12);

/** A measurement: 4 significant digits, thousands grouped, no exponent for everyday sizes. */
export function formatMeasure(value: number | null | undefined): string {
  if (missing(value)) return "—";
  const magnitude = Math.abs(value);
  if (!everyday(magnitude)) return value.toExponential(3);
  const digits = magnitude >= 1000 ? 0 : Math.max(0, 3 - Math.floor(Math.log10(magnitude || 1)));
  return value.toLocaleString("en-US", { maximumFractionDigits: Math.min(digits, 6), minimumFractionDigits: 0 });
}

/** A percentile merged from HdrHistograms, to the 3 significant digits the histograms keep. */
export function formatPercentile(value: number | null | undefined): string {
  if (missing(value)) return "—";
  return everyday(Math.abs(value)) ? atDecimals(value, decimalsFor(value, 3)) : value.toExponential(2);
}

/** The decimal place (negative: tens, hundreds…) of `value`'s `digits`-th significant digit. */
function decimalsFor(value: number, digits: number): number {
  if (value === 0) return 0;
  // Rounding may carry into a new digit (0.0996 → 0.10): take the exponent after rounding.
  const rounded = Math.abs(Number(value.toPrecision(digits)));
  return digits - 1 - Math.floor(Math.log10(rounded));
}

/** `value` rounded at the decimal place `decimals`, thousands grouped. */
function atDecimals(value: number, decimals: number): string {
  // A double holds about 15 significant digits: never write more than it knows.
  const places = Math.min(decimals, 15 - Math.floor(Math.log10(Math.abs(value) || 1)));
  if (places >= 0) return value.toLocaleString("en-US", { minimumFractionDigits: places, maximumFractionDigits: places });
  const unit = 10 ** -places;
  return (Math.round(value / unit) * unit).toLocaleString("en-US", { maximumFractionDigits: 0 });
}

/** `value` at the decimal place `decimals`, with an exponent where formatMeasure would use one. */
function roundedAt(value: number, decimals: number, reference: number): string {
  if (everyday(Math.abs(reference))) return atDecimals(value, decimals);
  const exponent = Math.floor(Math.log10(Math.abs(value) || 1));
  return value.toExponential(Math.max(0, Math.min(exponent + decimals, 14)));
}

/** "3.08 ± 0.20": the mean at the sd's second significant digit; the mean alone without an sd. */
export function formatMeanSd(mean: number | null | undefined, sd: number | null | undefined): { mean: string; sd: string | null } {
  if (missing(mean)) return { mean: "—", sd: null };
  if (missing(sd)) return { mean: formatMeasure(mean), sd: null };
  if (sd === 0) return { mean: formatMeasure(mean), sd: "0" };
  const decimals = decimalsFor(sd, 2);
  return { mean: roundedAt(mean, decimals, mean), sd: roundedAt(sd, decimals, mean) };
}

export interface MedianFigures {
  median: string;
  /** The interval's bounds; null without an interval, or when it is a point (one run, equal runs). */
  low: string | null;
  high: string | null;
  min: string;
  max: string;
  /** "2.947 … 3.436", or the one value when every run gave it. */
  range: string;
}

/**
 * A variant's median with its interval, and its runs' min and max, at one decimal place: the
 * second significant digit of the nearer bound's distance from the median (4 significant digits
 * when every figure is the same, e.g. a single run: then there is no interval to show).
 */
export function formatMedianFigures(stats: { median: number | null; medianCi: { low: number; high: number } | null; min: number | null; max: number | null }): MedianFigures {
  const { median } = stats;
  const ci = stats.medianCi && stats.medianCi.low !== stats.medianCi.high ? stats.medianCi : null;
  const distances = ci && !missing(median) ? [median - ci.low, ci.high - median].filter((d) => d > 0) : [];
  const decimals = distances.length > 0 ? decimalsFor(Math.min(...distances), 2) : null;
  const at = (value: number | null | undefined) => (missing(value) || decimals === null || missing(median) ? formatMeasure(value) : roundedAt(value, decimals, median));
  const [min, max] = [at(stats.min), at(stats.max)];
  return { median: at(median), low: ci ? at(ci.low) : null, high: ci ? at(ci.high) : null, min, max, range: min === max ? min : `${min} … ${max}` };
}

/** "−4.37%", the statistics engine's own rounding; "—" when unknown. */
export function formatPercent(value: number | null | undefined): string {
  return value === null || value === undefined ? "—" : formatPercentValue(value);
}

/** "0.032", or "1.2e-5" for tiny p; "—" when there is no test. */
export function formatP(p: number | null | undefined): string {
  return p === null || p === undefined ? "—" : formatPValue(p);
}

/** A moment as people read it everywhere in Versus: to the minute, always UTC. */
export function formatDateTime(value: Date | string | null | undefined): string {
  if (!value) return "—";
  const date = typeof value === "string" ? new Date(value) : value;
  return date.toISOString().replace("T", " ").slice(0, 16) + " UTC";
}

/** How a person is named in lists and messages: their name, or their email when they gave none. */
export function personLabel(person: { name: string; email: string }): string {
  return person.name || person.email;
}
