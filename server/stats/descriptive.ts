// Descriptive statistics of one variant's replicates (one value per run).
// Versus shows the *sample* standard deviation (divides by n − 1) and says so; the population
// sd (divides by n) is available because some write-ups publish it (docs/examples.md case 5).

/** Sum with Neumaier compensation, so means of many similar values keep their last digits. */
export function sum(xs: readonly number[]): number {
  let s = 0;
  let c = 0;
  for (const x of xs) {
    const t = s + x;
    c += Math.abs(s) >= Math.abs(x) ? s - t + x : x - t + s;
    s = t;
  }
  return s + c;
}

function requireValues(xs: readonly number[], what: string, min = 1): void {
  if (xs.length < min) throw new RangeError(`${what} needs at least ${min} value${min === 1 ? "" : "s"}, got ${xs.length}`);
}

export function mean(xs: readonly number[]): number {
  requireValues(xs, "mean");
  return sum(xs) / xs.length;
}

/** Variance with `ddof` delta degrees of freedom (1: sample, 0: population), two-pass. */
export function variance(xs: readonly number[], ddof: 0 | 1 = 1): number {
  requireValues(xs, "variance", ddof + 1);
  const m = mean(xs);
  return sum(xs.map((x) => (x - m) * (x - m))) / (xs.length - ddof);
}

/** Sample standard deviation (n − 1): the one Versus shows. */
export function sampleSd(xs: readonly number[]): number {
  return Math.sqrt(variance(xs, 1));
}

/** Population standard deviation (n). */
export function populationSd(xs: readonly number[]): number {
  return Math.sqrt(variance(xs, 0));
}

/** Coefficient of variation (sample sd / |mean|); null when the mean is 0 or n < 2. */
export function coefficientOfVariation(xs: readonly number[]): number | null {
  if (xs.length < 2) return null;
  const m = mean(xs);
  return m === 0 ? null : sampleSd(xs) / Math.abs(m);
}

export function sortedCopy(xs: readonly number[]): number[] {
  return xs.slice().sort((a, b) => a - b);
}

/** Quantile q ∈ [0, 1] of sorted values, linear interpolation (Hyndman–Fan type 7, numpy's default). */
export function quantileSorted(sorted: readonly number[], q: number): number {
  requireValues(sorted, "quantile");
  if (!(q >= 0 && q <= 1)) throw new RangeError(`quantile must be in [0, 1], got ${q}`);
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const a = sorted[lo] as number;
  const b = sorted[Math.min(lo + 1, sorted.length - 1)] as number;
  return a + (h - lo) * (b - a);
}

/** Median of sorted values (the middle value, or the mean of the two middle values). */
export function medianSorted(sorted: readonly number[]): number {
  requireValues(sorted, "median");
  const n = sorted.length;
  const mid = n >> 1;
  return n % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

export function median(xs: readonly number[]): number {
  return medianSorted(sortedCopy(xs));
}
