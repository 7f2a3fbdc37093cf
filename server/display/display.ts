// How Versus prints a figure, wherever people read one: the comparison table and its cards, every
// chart's axis, labels and tooltips, the share page, the Compare page, the Markdown report, the CI
// gate's summary, alert messages, badges and the statistics engine's own reasons. One module so
// that one figure is never printed two ways. Plain functions, no React: server/ and components/
// both use them.
//
// Units (unitScale): each figure is written in the unit that shows it with 1 to 999 before the
// decimal point (1,023 for bytes):
// - durations (ns, us/µs, ms, s, also per operation: ns/op) as ns, µs, ms or s;
// - bytes (B, KB/KiB, MB/MiB… and their /s and /op rates) in binary steps, labelled as such:
//   B, KiB, MiB, GiB, TiB (a "KB" a tool wrote is read as 1024 B, as tools that print it mean);
// - other rates (req/s, ops/s, msg/s), counts and unknown units keep their unit as written;
//   "%" is glued to the number ("12.5%").
// Figures that belong together — a median with its interval and the runs' min and max, a mean with
// its sd — share the leading figure's unit.
//
// Rounding:
// - a figure with a spread is rounded at the spread's second significant digit, as physics and
//   JMH-style reports do: "3.08 ± 0.20", "2.890 ± 0.045"; the median and its bounds at the nearer
//   bound's distance, so neither bound loses information; the runs' min and max share the median's
//   decimal place (with few runs they are the bounds). The chart's bar label and tooltip print the
//   median or the mean through the same functions as the table.
// - percentiles merged from HdrHistograms: 3 significant digits, the histograms' own precision;
// - any other measurement: 4 significant digits (formatMeasure);
// - a p-value: three decimals, or two significant digits below 0.001.
// Changes (formatChange): a percentage with two decimals between −50% and +100%; outside that, a
// factor of the baseline with 3 significant digits, "410×" rather than "+40,914.41%", "0.0024×"
// rather than "−99.76%": halving and doubling are equally large changes, and both are read
// better as a factor.
import type { z } from "zod";
import type { ZMetricComparison } from "../stats/schemas";
import { changeStyle, formatChange, formatP, missing, type ChangeStyle } from "../stats/stat-text";

// The statistics write changes and p-values into their own notes, so those two live beside them.
export { changeStyle, formatChange, formatP, type ChangeStyle };

type MetricComparison = z.output<typeof ZMetricComparison>;
export type CandidateComparison = MetricComparison["comparisons"][number];
export type VariantStats = MetricComparison["variants"][number];

export const verdictLabel = { better: "better", worse: "worse", no_change: "no significant change", insufficient_data: "not enough data" } as const;

export const directionLabel = { lower_is_better: "lower is better", higher_is_better: "higher is better" } as const;

/** What each run contributes to comparisons under a metric's aggregation (server/runs/run-figure.ts's rule). */
export const perRunLabel = (aggregation: string) => `each run's value, else its ${aggregation}`;

// ---------------------------------------------------------------------------------------------
// Units

interface Step {
  /** How many base units one of this is (µs → 1e-6 s). */
  size: number;
  label: string;
}

const TIME: readonly Step[] = [
  { size: 1e-9, label: "ns" },
  { size: 1e-6, label: "µs" },
  { size: 1e-3, label: "ms" },
  { size: 1, label: "s" },
];
const TIME_IN: Record<string, number> = { ns: 1e-9, us: 1e-6, µs: 1e-6, μs: 1e-6, ms: 1e-3, s: 1, sec: 1 };

const BYTES: readonly Step[] = [
  { size: 1, label: "B" },
  { size: 1024, label: "KiB" },
  { size: 1024 ** 2, label: "MiB" },
  { size: 1024 ** 3, label: "GiB" },
  { size: 1024 ** 4, label: "TiB" },
];
const BYTES_IN: Record<string, number> = {
  b: 1,
  byte: 1,
  bytes: 1,
  kb: 1024,
  kib: 1024,
  mb: 1024 ** 2,
  mib: 1024 ** 2,
  gb: 1024 ** 3,
  gib: 1024 ** 3,
  tb: 1024 ** 4,
  tib: 1024 ** 4,
};

/** Units that mean "a plain number". */
const UNITLESS = new Set(["", "1", "count"]);

/** How a unit scales, or null when it is kept as written. */
function familyOf(unit: string): { size: number; steps: readonly Step[]; suffix: string } | null {
  const slash = unit.indexOf("/");
  const head = slash === -1 ? unit : unit.slice(0, slash);
  const suffix = slash === -1 ? "" : unit.slice(slash);
  if (head in TIME_IN && (suffix === "" || suffix === "/op")) return { size: TIME_IN[head] as number, steps: TIME, suffix };
  const bytes = BYTES_IN[head.toLowerCase()];
  // "B", "KB", "MiB", "bytes" are bytes; "Mb" (megabits) and "kb" are not: only a capital B or the word.
  if (bytes !== undefined && (/B$/.test(head) || /^bytes?$/i.test(head)) && (suffix === "" || suffix === "/s" || suffix === "/op"))
    return { size: bytes, steps: BYTES, suffix };
  return null;
}

export interface UnitScale {
  /** Multiply a value in the metric's unit by this to express it in `unit`. */
  factor: number;
  /** "ms", "KiB/s", "req/s"; "" for a plain number. */
  unit: string;
  /** "%" is written against the number. */
  glued: boolean;
}

/** Significant digits a lone measurement keeps; the scale is chosen after rounding to them. */
const MEASURE_DIGITS = 4;

/**
 * The unit that writes `magnitude` (in `unit`) with 1 to 999 before the decimal point (bytes: up
 * to 1,023), compared after rounding, so 999.96 µs reads "1 ms" and not "1,000 µs". Zero stays in
 * the unit it was given.
 */
export function unitScale(unit: string, magnitude: number): UnitScale {
  const trimmed = unit.trim();
  if (UNITLESS.has(trimmed)) return { factor: 1, unit: "", glued: false };
  const family = familyOf(trimmed);
  if (!family) return { factor: 1, unit: trimmed, glued: trimmed === "%" };
  const base = Math.abs(magnitude) * family.size;
  let chosen = family.steps.find((step) => step.size === family.size) ?? (family.steps[0] as Step);
  if (base !== 0 && Number.isFinite(base)) {
    chosen = family.steps[0] as Step;
    for (const step of family.steps) if (Number((base / step.size).toPrecision(MEASURE_DIGITS)) >= 1) chosen = step;
  }
  return { factor: family.size / chosen.size, unit: `${chosen.label}${family.suffix}`, glued: false };
}

/** "3.08 ms", "12.5%", "7": a written number and its unit. */
export function withUnit(number: string, scale: Pick<UnitScale, "unit" | "glued">): string {
  if (!scale.unit || number === "—") return number;
  return scale.glued ? `${number}${scale.unit}` : `${number} ${scale.unit}`;
}

// ---------------------------------------------------------------------------------------------
// Numbers

/** Outside this range a figure is written with an exponent. */
const everyday = (magnitude: number) => magnitude === 0 || (magnitude >= 1e-4 && magnitude < 1e12);

/** 4 significant digits (never rounding away a digit before the point), thousands grouped. */
function measureDigits(value: number): string {
  const magnitude = Math.abs(value);
  if (!everyday(magnitude)) return value.toExponential(MEASURE_DIGITS - 1);
  const digits = magnitude >= 1000 ? 0 : Math.max(0, MEASURE_DIGITS - 1 - Math.floor(Math.log10(magnitude || 1)));
  return grouped(value, 0, Math.min(digits, 6));
}

// One formatter per pair of fraction digits, made once: Number#toLocaleString with options builds
// a new Intl.NumberFormat on every call, which was the largest single cost of rendering the
// experiment page under bench/load.ts. `format` writes exactly what toLocaleString would.
const formatters = new Map<string, Intl.NumberFormat>();

/** `value` in en-US with thousands grouped and between `minFraction` and `maxFraction` decimals. */
function grouped(value: number, minFraction: number, maxFraction: number): string {
  const key = `${minFraction},${maxFraction}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.NumberFormat("en-US", { minimumFractionDigits: minFraction, maximumFractionDigits: maxFraction });
    formatters.set(key, formatter);
  }
  return formatter.format(value);
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
  if (places >= 0) return grouped(value, places, places);
  const unit = 10 ** -places;
  return grouped(Math.round(value / unit) * unit, 0, 0);
}

/** `value` at the decimal place `decimals`, with an exponent where a lone measurement would use one. */
function roundedAt(value: number, decimals: number, reference: number): string {
  if (everyday(Math.abs(reference))) return atDecimals(value, decimals);
  const exponent = Math.floor(Math.log10(Math.abs(value) || 1));
  return value.toExponential(Math.max(0, Math.min(exponent + decimals, 14)));
}

/** A lone measurement, 4 significant digits in its own unit: formatMeasure(1530000, "ns") → "1.53 ms". */
export function formatMeasure(value: number | null | undefined, unit = ""): string {
  if (missing(value)) return "—";
  const scale = unitScale(unit, value);
  return withUnit(measureDigits(value * scale.factor), scale);
}

/**
 * A number already in `scale`'s unit, as a lone measurement: every tick of one axis is written in
 * the unit chosen for the axis's largest value (0, 0.5 ms, 1 ms rather than 0, 500 µs, 1 ms).
 */
export function formatInScale(value: number, scale: UnitScale): string {
  return missing(value) ? "—" : withUnit(measureDigits(value * scale.factor), scale);
}

/** A percentile merged from HdrHistograms, to the 3 significant digits the histograms keep. */
export function formatPercentile(value: number | null | undefined, unit = ""): string {
  if (missing(value)) return "—";
  const scale = unitScale(unit, value);
  const scaled = value * scale.factor;
  return withUnit(everyday(Math.abs(scaled)) ? atDecimals(scaled, decimalsFor(scaled, 3)) : scaled.toExponential(2), scale);
}

/** "2.75 / 15.7 / 41.1 ms", or each with its unit when they differ ("900 µs / 15.7 ms / 41.1 ms"). */
export function formatPercentiles(values: readonly (number | null | undefined)[], unit: string): string {
  const scales = values.map((value) => unitScale(unit, missing(value) ? 0 : value));
  const numbers = values.map((value, i) => (missing(value) ? "—" : formatPercentile(value * (scales[i] as UnitScale).factor)));
  const one = scales.every((scale) => scale.unit === (scales[0] as UnitScale).unit);
  if (one) return withUnit(numbers.join(" / "), scales[0] as UnitScale);
  return numbers.map((number, i) => withUnit(number, scales[i] as UnitScale)).join(" / ");
}

export interface MeanSdFigures {
  mean: string;
  /** null without an sd (one run). */
  sd: string | null;
  /** The unit both are written in ("" for a plain number), and whether it is glued ("%"). */
  unit: string;
  glued: boolean;
}

/** "3.08 ± 0.20": the mean at the sd's second significant digit, both in the mean's unit. */
export function formatMeanSd(mean: number | null | undefined, sd: number | null | undefined, unit = ""): MeanSdFigures {
  const scale = unitScale(unit, missing(mean) ? 0 : mean);
  const figures = { unit: scale.unit, glued: scale.glued };
  if (missing(mean)) return { mean: "—", sd: null, ...figures };
  const m = mean * scale.factor;
  if (missing(sd)) return { mean: measureDigits(m), sd: null, ...figures };
  if (sd === 0) return { mean: measureDigits(m), sd: "0", ...figures };
  const s = sd * scale.factor;
  const decimals = decimalsFor(s, 2);
  return { mean: roundedAt(m, decimals, m), sd: roundedAt(s, decimals, m), ...figures };
}

/** "3.08 ± 0.20 ms"; "3.08 ms" without an sd. */
export function meanSdText(mean: number | null | undefined, sd: number | null | undefined, unit: string): string {
  const figures = formatMeanSd(mean, sd, unit);
  return withUnit(figures.sd === null ? figures.mean : `${figures.mean} ± ${figures.sd}`, figures);
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
  /** The unit every figure above is written in ("" for a plain number), and whether it is glued. */
  unit: string;
  glued: boolean;
}

/**
 * A variant's median with its interval, and its runs' min and max, in the median's unit and at
 * one decimal place: the second significant digit of the nearer bound's distance from the median
 * (4 significant digits when every figure is the same, e.g. a single run: then there is no
 * interval to show). Without min and max (a chart's bar) the median and its interval read the same.
 */
export function formatMedianFigures(
  stats: { median: number | null; medianCi: { low: number; high: number } | null; min?: number | null; max?: number | null },
  unit = "",
): MedianFigures {
  const { median } = stats;
  const scale = unitScale(unit, missing(median) ? Math.max(Math.abs(stats.min ?? 0), Math.abs(stats.max ?? 0)) : median);
  const ci = stats.medianCi && stats.medianCi.low !== stats.medianCi.high ? stats.medianCi : null;
  const distances = ci && !missing(median) ? [median - ci.low, ci.high - median].filter((d) => d > 0) : [];
  // Counts (GCs, errors): when every figure is a whole number, none is written with decimals ("27 [27, 28]", not "27.0 [27.0, 28.0]").
  const whole = scale.factor === 1 && [median, ci?.low, ci?.high, stats.min, stats.max].every((value) => missing(value) || Number.isInteger(value));
  const decimals = distances.length > 0 ? Math.min(decimalsFor(Math.min(...distances) * scale.factor, 2), whole ? 0 : Infinity) : null;
  const at = (value: number | null | undefined) => {
    if (missing(value)) return "—";
    return decimals === null || missing(median) ? measureDigits(value * scale.factor) : roundedAt(value * scale.factor, decimals, median * scale.factor);
  };
  const [min, max] = [at(stats.min), at(stats.max)];
  return {
    median: at(median),
    low: ci ? at(ci.low) : null,
    high: ci ? at(ci.high) : null,
    min,
    max,
    range: min === max ? min : `${min} … ${max}`,
    unit: scale.unit,
    glued: scale.glued,
  };
}

/** "3.019 ms [2.947, 3.436]": the median with its distribution-free interval. */
export function medianText(stats: { median: number | null; medianCi: { low: number; high: number } | null }, unit: string): string {
  if (missing(stats.median)) return "—";
  const figures = formatMedianFigures(stats, unit);
  return `${withUnit(figures.median, figures)}${figures.low !== null ? ` [${figures.low}, ${figures.high}]` : ""}`;
}

/** "2.947 … 3.436 ms": the lowest and highest run, at the median's decimal place. */
export function rangeText(
  stats: { median: number | null; medianCi: { low: number; high: number } | null; min: number | null; max: number | null },
  unit: string,
): string {
  if (missing(stats.min) || missing(stats.max)) return "—";
  const figures = formatMedianFigures(stats, unit);
  return withUnit(figures.range, figures);
}

// ---------------------------------------------------------------------------------------------
// Changes, tests and verdicts

/** "[−9.62%, −0.97%]", or "" without an interval; in the change's own style (changeStyle of the change and both bounds). */
export function changeCiText(ci: { low: number; high: number } | null | undefined, style: ChangeStyle = changeStyle(ci?.low, ci?.high)): string {
  return ci ? `[${formatChange(ci.low, style)}, ${formatChange(ci.high, style)}]` : "";
}

/** "2.7× [0.902×, 4.92×]", "−4.37% [−9.62%, −0.97%]": a change and its interval written in one style. */
export function changeAndCi(percent: number | null | undefined, ci: { low: number; high: number } | null | undefined): { change: string; ci: string } {
  const style = changeStyle(percent, ci?.low, ci?.high);
  return { change: formatChange(percent, style), ci: changeCiText(ci, style) };
}

/**
 * The p-value the verdict used (Holm-adjusted when several candidates were tested), or null when
 * the verdict rests on none: with too few runs the test cannot decide, so no p is printed beside
 * "not enough data".
 */
export function verdictP(candidate: Pick<CandidateComparison, "verdict" | "pAdjusted" | "mannWhitney">): number | null {
  if (candidate.verdict === "insufficient_data") return null;
  return candidate.pAdjusted ?? candidate.mannWhitney?.p ?? null;
}

/**
 * "better", "not enough data", "better (weak evidence)"; "under the noise floor" for no significant
 * change smaller than what the runs could see on their agents (`floor.belowFloor`).
 */
export function verdictText(candidate: Pick<CandidateComparison, "verdict" | "evidence">, floor?: Pick<NoiseFloorFigures, "belowFloor"> | null): string {
  if (floor?.belowFloor) return "under the noise floor";
  return `${verdictLabel[candidate.verdict]}${candidate.evidence === "weak" ? " (weak evidence)" : ""}`;
}

/** A candidate's noise floor as the comparison carries it (schemas/comparison.ts, CandidateNoiseFloor). */
export interface NoiseFloorFigures {
  mdePercent: number | null;
  runs: { baseline: number; candidate: number };
  agents: string[];
  unmeasured: string[];
  belowFloor: boolean;
  measuredAt: string;
}

/** "±2.1%": a minimum detectable effect. */
export function mdeText(percent: number): string {
  return `±${percent.toFixed(percent < 10 ? 1 : 0)}%`;
}

/**
 * "changes under ±2.1% cannot be seen with 5 runs here (noise floor of agent-1, measured
 * 2026-11-29)": what a verdict could not see, from the agents' A/A batch.
 */
export function noiseFloorText(floor: NoiseFloorFigures): string {
  const { baseline, candidate } = floor.runs;
  const runs = baseline === candidate ? `${baseline} runs` : `${baseline} and ${candidate} runs`;
  const seen =
    floor.mdePercent === null ? `${runs} cannot detect any change here` : `changes under ${mdeText(floor.mdePercent)} cannot be seen with ${runs} here`;
  const unmeasured = floor.unmeasured.length ? `; not measured: ${floor.unmeasured.join(", ")}` : "";
  return `${seen} (noise floor of ${floor.agents.join(", ")}, measured ${floor.measuredAt.slice(0, 10)}${unmeasured})`;
}

// ---------------------------------------------------------------------------------------------
// Times and people

/** Time since a series' start for an axis: "850 ms", "45 s", "12:30", "1:02:00". */
export function formatElapsed(ms: number, spanMs = ms): string {
  if (!Number.isFinite(ms)) return "—";
  if (spanMs < 2000) return `${measureDigits(ms)} ms`;
  if (spanMs < 120_000) return `${measureDigits(Number((ms / 1000).toPrecision(3)))} s`;
  const total = Math.round(ms / 1000);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, "0");
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, "0")}:${seconds}` : `${minutes}:${seconds}`;
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
