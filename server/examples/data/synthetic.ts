// Synthetic samples whose summary is exactly a published one. Where a write-up printed only a mean
// (and maybe a standard deviation, a peak or a range), the example data needs per-request or
// per-second values that summarise back to those printed figures. Recipe, the same everywhere:
//   1. draw a shape from the seeded generator (log-normal: positive and right-skewed like
//      latencies; for time series an AR(1) process under the exponential, so neighbouring seconds
//      look alike and peaks are short);
//   2. move and stretch it affinely so the mean (and sd, or peak, or range) hit the figures —
//      an affine map keeps the shape and, with a positive stretch, the position of the peak;
//   3. round to the printed precision and hand the rounding residue back one unit at a time to
//      the values that lost the most, so the sum (hence the mean) stays exact.
// Every generator checks that all values stay above a floor (positive by default) and throws
// when they do not, so a bad parameter choice fails the unit tests instead of shipping.
import type { SeededRandom } from "./random";

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);
const average = (values: readonly number[]) => sum(values) / values.length;

export type SdKind = "sample" | "population";

/** Standard deviation dividing by n − 1 ("sample") or by n ("population"). */
export function standardDeviation(values: readonly number[], kind: SdKind = "sample"): number {
  const m = average(values);
  const squares = values.reduce((acc, v) => acc + (v - m) ** 2, 0);
  return Math.sqrt(squares / (kind === "sample" ? values.length - 1 : values.length));
}

/**
 * Rounds to `decimals` places so that the values add up to exactly `targetUnits` units of the
 * last place: the residue of plain rounding goes, one unit each, to the values whose rounding
 * moved them furthest the other way. `keep` marks values that must not move (a published peak);
 * none is pushed above `ceiling` or below `floor`.
 */
export function roundKeepingSum(
  values: readonly number[],
  decimals: number,
  targetUnits: number,
  bounds: { keep?: ReadonlySet<number>; ceiling?: number; floor?: number } = {},
): number[] {
  const scale = 10 ** decimals;
  const units = values.map((v) => Math.round(v * scale));
  let residue = targetUnits - sum(units);
  const ceiling = bounds.ceiling === undefined ? Infinity : Math.round(bounds.ceiling * scale);
  const floor = bounds.floor === undefined ? -Infinity : Math.round(bounds.floor * scale);
  // Positive residue: raise the values rounded down the most first; negative: the reverse.
  const order = values
    .map((v, i) => ({ i, lost: v * scale - (units[i] as number) }))
    .filter(({ i }) => !bounds.keep?.has(i))
    .sort((a, b) => (residue > 0 ? b.lost - a.lost : a.lost - b.lost) || a.i - b.i);
  for (let guard = 0; residue !== 0 && guard < 1000; guard++) {
    let moved = false;
    for (const { i } of order) {
      if (residue === 0) break;
      const step = residue > 0 ? 1 : -1;
      const next = (units[i] as number) + step;
      if (next > ceiling || next < floor) continue;
      units[i] = next;
      residue -= step;
      moved = true;
    }
    if (!moved) break;
  }
  if (residue !== 0) throw new Error(`cannot round ${values.length} values to a sum of ${targetUnits / scale} within the bounds`);
  return units.map((u) => u / scale);
}

function requireAbove(values: readonly number[], floor: number, what: string) {
  const lowest = Math.min(...values);
  if (!(lowest > floor)) throw new Error(`${what}: a generated value (${lowest}) is not above ${floor}; choose a narrower shape`);
}

export interface MeanOptions {
  n: number;
  /** The published mean, reproduced exactly at `decimals` places. */
  mean: number;
  /** The published standard deviation, when there is one; otherwise the shape sets the spread. */
  sd?: number;
  sdKind?: SdKind;
  /** Spread of the log-normal shape (σ of the logarithm); without `sd`, roughly the CV. */
  sigma: number;
  /** Places to round to (the instrument's resolution); the mean stays exact. */
  decimals: number;
  /** Every value must stay above this (default 0: latencies, sizes and times are positive). */
  floor?: number;
  /** A published range every value must fall in (e.g. "4–6 s"); draws outside it are redrawn. */
  within?: [number, number];
}

/**
 * n samples with exactly the published mean (and sd): log-normal draws, scaled to the mean (or
 * moved and stretched to mean and sd), rounded to `decimals` keeping the sum exact.
 */
export function samplesWithMean(random: SeededRandom, options: MeanOptions): number[] {
  const { n, mean, sd, sigma, decimals, within } = options;
  const floor = options.floor ?? 0;
  for (let attempt = 0; attempt < 1000; attempt++) {
    const draws = Array.from({ length: n }, () => random.logNormal(0, sigma));
    const drawMean = average(draws);
    let values: number[];
    if (sd === undefined) {
      values = draws.map((d) => (d * mean) / drawMean);
    } else {
      const stretch = sd / standardDeviation(draws, options.sdKind ?? "sample");
      values = draws.map((d) => mean + (d - drawMean) * stretch);
    }
    const rounded = roundKeepingSum(values, decimals, Math.round(mean * n * 10 ** decimals), { floor, ceiling: within?.[1] });
    if (within && rounded.some((v) => v < within[0] || v > within[1])) continue;
    requireAbove(rounded, floor, `samples with mean ${mean}`);
    return rounded;
  }
  throw new Error(`no ${n} samples with mean ${mean} fit in ${within?.join("–")}`);
}

export interface SeriesShape {
  n: number;
  /** σ of the logarithm of the AR(1) shape: how spiky the series is. */
  sigma: number;
  /** AR(1) coefficient: how much each point follows the previous one (0: independent). */
  phi: number;
  decimals: number;
}

/** exp(σ · X) with X a stationary AR(1) process of unit variance. */
function ar1Shape(random: SeededRandom, { n, sigma, phi }: SeriesShape): number[] {
  const innovation = Math.sqrt(1 - phi * phi);
  let x = random.normal();
  return Array.from({ length: n }, (_, i) => {
    if (i > 0) x = phi * x + innovation * random.normal();
    return Math.exp(sigma * x);
  });
}

/**
 * A time series with exactly the published mean and peak (e.g. average TPS 662, peak TPS 921):
 * the shape is stretched about its mean until its highest point is the peak. Shapes whose lowest
 * point would fall below `floor` are drawn again (the stream moves on, so this stays seeded).
 */
export function seriesWithMeanAndMax(random: SeededRandom, options: SeriesShape & { mean: number; max: number; floor: number }): number[] {
  const { mean, max, floor, decimals } = options;
  for (let attempt = 0; attempt < 1000; attempt++) {
    const shape = ar1Shape(random, options);
    const shapeMean = average(shape);
    const shapeMax = Math.max(...shape);
    const peakAt = shape.indexOf(shapeMax);
    const stretch = (max - mean) / (shapeMax - shapeMean);
    const values = shape.map((s, i) => (i === peakAt ? max : mean + (s - shapeMean) * stretch));
    if (Math.min(...values) <= floor + 10 ** -decimals) continue;
    const rounded = roundKeepingSum(values, decimals, Math.round(mean * options.n * 10 ** decimals), { keep: new Set([peakAt]), ceiling: max, floor });
    requireAbove(rounded, floor, `series with mean ${mean} and peak ${max}`);
    return rounded;
  }
  throw new Error(`no series with mean ${mean} and peak ${max} stays above ${floor}`);
}

/** A time series spanning exactly the published range (e.g. TPS ~400–538): lowest and highest points hit it. */
export function seriesInRange(random: SeededRandom, options: SeriesShape & { min: number; max: number }): number[] {
  const { min, max, decimals } = options;
  const shape = ar1Shape(random, options);
  const low = Math.min(...shape);
  const high = Math.max(...shape);
  const scale = 10 ** decimals;
  return shape.map((s) => Math.round((min + ((s - low) / (high - low)) * (max - min)) * scale) / scale);
}

/** A time series around a level with exactly the given total (e.g. requests per second adding up to the run's requests). */
export function seriesWithSum(random: SeededRandom, options: SeriesShape & { total: number }): number[] {
  const { total, decimals } = options;
  const shape = ar1Shape(random, options);
  const shapeSum = sum(shape);
  const rounded = roundKeepingSum(
    shape.map((s) => (s * total) / shapeSum),
    decimals,
    Math.round(total * 10 ** decimals),
    { floor: 0 },
  );
  requireAbove(rounded, 0, `series adding up to ${total}`);
  return rounded;
}
