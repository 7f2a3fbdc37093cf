// What makes a summary of n values possible: the rules every summary Versus stores must keep,
// whoever made it (an upload, an importer, an agent, the server's own summary of samples or of a
// histogram). A summary that breaks one describes no set of values — "n = 4, mean 450.3, min 394,
// max 1,656" is one: four values between 394 and 1,656 that include both have a mean of at least
// 709.5 — and is refused, naming the field and what it could be.
//
// Two tolerances: figures a program computed in floating point may be off in the last digits
// (FLOAT), and bounds derived from n and the extremes are checked to 1 part in 1,000 (PRINTED):
// HdrHistogram's precision (3 significant digits), so that an exact mean beside a histogram's
// extremes, or a tool's figures printed to 4 digits, are not refused for their rounding.

/** The figures of a summary; absent ones are unknown and not checked. */
export interface SummaryFigures {
  n: number;
  mean: number;
  sd?: number | null;
  min?: number | null;
  max?: number | null;
  p50?: number | null;
  p90?: number | null;
  p95?: number | null;
  p99?: number | null;
  p999?: number | null;
  sum?: number | null;
}

export type SummaryField = keyof SummaryFigures;

export interface SummaryContradiction {
  field: SummaryField;
  message: string;
}

const FLOAT = 1e-9;
const PRINTED = 1e-3;
/** Below this, magnitudes are subnormal doubles, whose arithmetic loses every digit. */
const TINY = 1e-300;
const PERCENTILES = ["p50", "p90", "p95", "p99", "p999"] as const;
const NAMES: Record<(typeof PERCENTILES)[number], string> = { p50: "p50", p90: "p90", p95: "p95", p99: "p99", p999: "p99.9" };

/** The rules as one sentence, for the OpenAPI document and the docs. */
export const SUMMARY_RULES =
  "n, mean, sd, min, max, the percentiles and sum describe the same n values: n ≥ 1; sd ≥ 0; min ≤ mean ≤ max; " +
  "p50 ≤ p90 ≤ p95 ≤ p99 ≤ p999, all within [min, max]; with n = 1 there is no spread (sd 0 or absent, min = max = mean and every percentile the mean); " +
  "with min and max, the mean lies within what n values including both can have ([(n−1)·min + max]/n … [min + (n−1)·max]/n) " +
  "and sd lies between (max − min)/√(2n) and √(n/(n−1)·(max − mean)·(mean − min)); sum = mean × n (to 1 part in a million). " +
  "A summary that breaks one is refused with 400 naming the field.";

const present = (value: number | null | undefined): value is number => value !== undefined && value !== null;
const show = (value: number) => String(Number(value.toPrecision(10)));

/**
 * The contradictions between a summary's figures, each naming the field it is about; [] when the
 * summary can be true. Assumes n ≥ 1 and sd ≥ 0 (each field's own range, checked by the schema).
 */
export function summaryContradictions(s: SummaryFigures): SummaryContradiction[] {
  const out: SummaryContradiction[] = [];
  const { n, mean } = s;
  const min = present(s.min) ? s.min : undefined;
  const max = present(s.max) ? s.max : undefined;
  const scale = Math.max(Math.abs(mean), Math.abs(min ?? 0), Math.abs(max ?? 0), Number.MIN_VALUE);
  const slack = (tolerance: number) => tolerance * scale + TINY;
  const above = (a: number, b: number, tolerance = FLOAT) => a > b + slack(tolerance);

  // n ≥ 1 and sd ≥ 0 are each field's own range, which the schema checks (and the OpenAPI
  // document shows as its minimum); these rules are about how the figures go together.
  if (!(n >= 1)) return out;
  if (min !== undefined && max !== undefined && above(min, max)) out.push({ field: "min", message: `min ${show(min)} cannot be above max ${show(max)}` });
  if (min !== undefined && above(min, mean)) out.push({ field: "mean", message: `mean ${show(mean)} cannot be below min ${show(min)}` });
  if (max !== undefined && above(mean, max)) out.push({ field: "mean", message: `mean ${show(mean)} cannot be above max ${show(max)}` });

  let previous: { field: (typeof PERCENTILES)[number]; value: number } | undefined;
  for (const field of PERCENTILES) {
    const value = s[field];
    if (!present(value)) continue;
    if (min !== undefined && above(min, value)) out.push({ field, message: `${NAMES[field]} ${show(value)} cannot be below min ${show(min)}` });
    else if (max !== undefined && above(value, max)) out.push({ field, message: `${NAMES[field]} ${show(value)} cannot be above max ${show(max)}` });
    else if (previous && above(previous.value, value))
      out.push({ field, message: `${NAMES[field]} ${show(value)} cannot be below ${NAMES[previous.field]} ${show(previous.value)}` });
    previous = { field, value };
  }

  if (n === 1) {
    // One value: it is the mean, the minimum, the maximum and every percentile.
    if (present(s.sd) && above(s.sd, 0)) out.push({ field: "sd", message: `n = 1: one value has no spread, so sd must be 0 or absent, not ${show(s.sd)}` });
    for (const field of ["min", "max", ...PERCENTILES] as const) {
      const value = s[field];
      if (present(value) && (above(value, mean) || above(mean, value))) {
        out.push({
          field,
          message: `n = 1: the one value is the mean ${show(mean)}, so ${field === "p999" ? "p99.9" : field} must be it too, not ${show(value)}`,
        });
      }
    }
  } else if (min !== undefined && max !== undefined && !above(min, max)) {
    // n values that include min and max: the other n − 2 lie between them.
    const lowest = ((n - 1) * min + max) / n;
    const highest = (min + (n - 1) * max) / n;
    if (above(lowest, mean, PRINTED) || above(mean, highest, PRINTED)) {
      out.push({
        field: "mean",
        message: `mean ${show(mean)} is not possible for ${n} values from min ${show(min)} to max ${show(max)}: it must lie between ${show(lowest)} and ${show(highest)}`,
      });
    } else if (present(s.sd) && s.sd >= 0) {
      // Bhatia–Davis bound on the variance (× n/(n−1) for the sample sd) and, at the other end,
      // the least spread n values reaching both extremes can have (population sd, the smaller).
      // (Square roots first: the product of the two distances underflows or overflows at the ends of the float64 range.)
      const largest = Math.sqrt(n / (n - 1)) * Math.sqrt(Math.max(0, max - mean)) * Math.sqrt(Math.max(0, mean - min));
      const smallest = (max - min) / Math.sqrt(2 * n);
      if (above(s.sd, largest, PRINTED))
        out.push({
          field: "sd",
          message: `sd ${show(s.sd)} is not possible for ${n} values from min ${show(min)} to max ${show(max)} with mean ${show(mean)}: it is at most ${show(largest)}`,
        });
      else if (above(smallest, s.sd, PRINTED))
        out.push({
          field: "sd",
          message: `sd ${show(s.sd)} is not possible for ${n} values reaching both min ${show(min)} and max ${show(max)}: it is at least ${show(smallest)}`,
        });
    }
  }

  if (present(s.sum)) {
    const expected = mean * n;
    // Relative to the values added up (n × the largest magnitude), not to the sum: a sum of
    // values of both signs cancels, and so does its rounding.
    if (Math.abs(s.sum - expected) > 1e-6 * Math.max(Math.abs(s.sum), n * scale) + TINY) {
      out.push({ field: "sum", message: `sum ${show(s.sum)} is not mean × n = ${show(expected)}: a summary's sum adds up the values its mean averages` });
    }
  }
  return out;
}
