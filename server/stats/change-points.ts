// Change points in a metric's history: E-Divisive means (Matteson & James, "A Nonparametric
// Approach for Multiple Change Point Analysis of Multivariate Data", JASA 2014), the method behind
// MongoDB's signal-processing-algorithms and Apache Otava (formerly Hunter).
//
// One pass over a segment [a, b) scores every split τ (both sides ≥ minSize) with
//   q̂(τ) = m·n/(m+n) · ( 2/(m·n)·Σ|xᵢ−yⱼ|^α − Σ_{i<k}|xᵢ−xₖ|^α / C(m,2) − Σ_{j<l}|yⱼ−yₗ|^α / C(n,2) )
// (x = the m values before τ, y = the n values from τ on). The three sums are updated as τ moves
// one step (the moved value's distances to the rest of the segment), so a scan is O(L log L) for
// α = 1 (O(L²) otherwise) and O(L) in memory. The hierarchical procedure: the best split over all
// current segments is tested by permutation (values shuffled within each segment, the best q̂ over all segments
// recomputed; p = (1 + #{permuted ≥ observed}) / (1 + permutations)); if p ≤ significance the split
// is kept and both halves become segments, otherwise the procedure stops.
//
// Each segment's permutation maxima use a PRNG seeded from (seed, segment bounds), so they are
// computed once per segment and reused across iterations, and a segment gives the same answer
// whether it is reached by a full run or by an incremental one (see `previous` below).
import { mean, median } from "./descriptive";
import { mulberry32, shuffled } from "./prng";

export interface ChangePointOptions {
  /** Exponent of the distance |x − y|^α, in (0, 2); 1 (the default) compares means and more. */
  alpha?: number;
  /** Permutations per significance test (default 199). */
  permutations?: number;
  /** A split is kept when its permutation p ≤ this (default 0.01: one test per segment, so a long
   * history is tested many times). */
  significance?: number;
  /** Fewest points on each side of a change point (default 5, at least 2). */
  minSegment?: number;
  /** PRNG seed of the permutation test (default 1). */
  seed?: number;
}

export interface Segment {
  /** First index (inclusive). */
  start: number;
  /** One past the last index. */
  end: number;
}

export interface ChangePoint {
  /** Index of the first point of the new level. */
  index: number;
  /** Median of the segment before / after (the segments of the final segmentation). */
  before: number;
  after: number;
  /** Means of the same segments (E-Divisive *means* is what the split detects). */
  meanBefore: number;
  meanAfter: number;
  /** (after / before − 1) · 100 on the medians; null when the median before is 0. Direction-agnostic. */
  changePercent: number | null;
  /** Permutation p-value of the split when it was found. */
  p: number;
  /** The statistic q̂ at the split. */
  qHat: number;
  beforeSegment: Segment;
  afterSegment: Segment;
}

export interface ChangePointResult {
  /** Sorted by index. */
  changePoints: ChangePoint[];
  /** Series length the result describes (an incremental run checks it only grows). */
  length: number;
  options: Required<ChangePointOptions>;
}

export const DEFAULT_CHANGE_POINT_OPTIONS: Required<ChangePointOptions> = {
  alpha: 1,
  permutations: 199,
  significance: 0.01,
  minSegment: 5,
  seed: 1,
};

/**
 * The change points of `series` (in order, e.g. one value per commit).
 *
 * Incremental use: pass the result of an earlier call on a prefix of the same series (same
 * options) as `previous`. Change points up to and including the last earlier one are kept as they
 * were (with their p and q̂; the level after the last one is recomputed over the grown segment),
 * and only the tail from that last change point on is searched, as a segment of its own (its
 * permutation test does not take the earlier segments into account). History
 * before the last change point is never revisited: new points move the levels after it, and a
 * new shift shows up in the tail. Call without `previous` to re-analyse everything (e.g. when old
 * runs were deleted or options changed).
 */
export function detectChangePoints(series: readonly number[], options: ChangePointOptions = {}, previous?: ChangePointResult): ChangePointResult {
  const opts = checkOptions(options);
  series.forEach((v, i) => {
    if (!Number.isFinite(v)) throw new RangeError(`series[${i}] must be a finite number (got ${String(v)})`);
  });
  let kept: { index: number; p: number; qHat: number }[] = [];
  let from = 0;
  if (previous) {
    if (previous.length > series.length) throw new RangeError(`previous result covers ${previous.length} points but the series has only ${series.length}`);
    for (const key of Object.keys(opts) as (keyof ChangePointOptions)[]) {
      if (previous.options[key] !== opts[key]) throw new RangeError(`previous result used ${key} = ${previous.options[key]}, not ${opts[key]}`);
    }
    kept = previous.changePoints.map((c) => ({ index: c.index, p: c.p, qHat: c.qHat }));
    from = kept.at(-1)?.index ?? 0;
  }
  const found = divisive(series, from, series.length, opts);
  return { changePoints: describe(series, [...kept, ...found]), length: series.length, options: opts };
}

function checkOptions(options: ChangePointOptions): Required<ChangePointOptions> {
  const opts = { ...DEFAULT_CHANGE_POINT_OPTIONS, ...options };
  if (!(opts.alpha > 0 && opts.alpha < 2)) throw new RangeError(`alpha must be in (0, 2) (got ${opts.alpha})`);
  if (!Number.isInteger(opts.permutations) || opts.permutations < 1) throw new RangeError(`permutations must be an integer ≥ 1 (got ${opts.permutations})`);
  if (!(opts.significance > 0 && opts.significance < 1)) throw new RangeError(`significance must be in (0, 1) (got ${opts.significance})`);
  if (!Number.isInteger(opts.minSegment) || opts.minSegment < 2) throw new RangeError(`minSegment must be an integer ≥ 2 (got ${opts.minSegment})`);
  if (!Number.isInteger(opts.seed)) throw new RangeError(`seed must be an integer (got ${opts.seed})`);
  return opts;
}

interface Split {
  tau: number;
  qHat: number;
}

/** Hierarchical E-Divisive on [start, end): the significant splits in the order found. */
function divisive(series: readonly number[], start: number, end: number, opts: Required<ChangePointOptions>): { index: number; p: number; qHat: number }[] {
  const found: { index: number; p: number; qHat: number }[] = [];
  let segments: Segment[] = [{ start, end }];
  const bestMemo = new Map<string, Split | null>();
  const permMemo = new Map<string, Float64Array>();
  for (;;) {
    let best: (Split & { segment: Segment }) | null = null;
    for (const s of segments) {
      const key = `${s.start}:${s.end}`;
      if (!bestMemo.has(key)) bestMemo.set(key, bestSplit(series.slice(s.start, s.end), opts.alpha, opts.minSegment));
      const split = bestMemo.get(key);
      if (split && (!best || split.qHat > best.qHat)) best = { tau: split.tau + s.start, qHat: split.qHat, segment: s };
    }
    if (!best) return found;
    // The permuted statistic is the best q̂ over all segments, each shuffled on its own.
    const maxima = new Float64Array(opts.permutations).fill(-Infinity);
    for (const s of segments) {
      const key = `${s.start}:${s.end}`;
      let perm = permMemo.get(key);
      if (!perm) {
        perm = permutationMaxima(series.slice(s.start, s.end), s, opts);
        permMemo.set(key, perm);
      }
      for (let r = 0; r < opts.permutations; r++) maxima[r] = Math.max(maxima[r] as number, perm[r] as number);
    }
    let atLeast = 0;
    for (const m of maxima) if (m >= best.qHat) atLeast++;
    const p = (1 + atLeast) / (1 + opts.permutations);
    if (p > opts.significance) return found;
    found.push({ index: best.tau, p, qHat: best.qHat });
    const hit = best.segment;
    segments = segments.flatMap((s) =>
      s === hit
        ? [
            { start: s.start, end: best.tau },
            { start: best.tau, end: s.end },
          ]
        : [s],
    );
  }
}

/** Each permutation's best q̂ on a shuffled copy of a segment, seeded by the segment's bounds. */
function permutationMaxima(values: readonly number[], segment: Segment, opts: Required<ChangePointOptions>): Float64Array {
  const random = mulberry32(segmentSeed(opts.seed, segment));
  const out = new Float64Array(opts.permutations);
  for (let r = 0; r < opts.permutations; r++) out[r] = bestSplit(shuffled(values, random), opts.alpha, opts.minSegment)?.qHat ?? -Infinity;
  return out;
}

function segmentSeed(seed: number, segment: Segment): number {
  let h = seed >>> 0;
  for (const v of [segment.start, segment.end]) h = Math.imul(h ^ v, 0x9e3779b1) + 0x7f4a7c15;
  return h >>> 0;
}

/** Running sums of distances for every split τ of `values`: within before, within after, across. */
export function splitSums(values: readonly number[], alpha = 1): { within: Float64Array; withinAfter: Float64Array; across: Float64Array } {
  const n = values.length;
  // toBefore[p] = Σ_{i<p} d(xᵢ, xₚ), toAfter[p] = Σ_{j>p} d(xₚ, xⱼ): moving xₚ across the split
  // changes each sum by one of these.
  const { toBefore, toAfter } = alpha === 1 ? absoluteDistanceSums(values) : powerDistanceSums(values, alpha);
  const within = new Float64Array(n + 1);
  const withinAfter = new Float64Array(n + 1);
  const across = new Float64Array(n + 1);
  let y = 0;
  for (let p = 0; p < n; p++) y += toAfter[p] as number;
  let x = 0;
  let xy = 0;
  for (let tau = 0; tau <= n; tau++) {
    within[tau] = x;
    withinAfter[tau] = Math.max(0, y);
    across[tau] = xy;
    if (tau === n) break;
    const b = toBefore[tau] as number;
    const a = toAfter[tau] as number;
    x += b;
    y -= a;
    xy += a - b;
  }
  return { within, withinAfter, across };
}

/** Distance sums for |x − y|^α by all pairs: O(n²). */
function powerDistanceSums(values: readonly number[], alpha: number): { toBefore: Float64Array; toAfter: Float64Array } {
  const n = values.length;
  const toBefore = new Float64Array(n);
  const toAfter = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const v = values[i] as number;
    for (let j = i + 1; j < n; j++) {
      const d = Math.abs(v - (values[j] as number)) ** alpha;
      toAfter[i] = (toAfter[i] as number) + d;
      toBefore[j] = (toBefore[j] as number) + d;
    }
  }
  return { toBefore, toAfter };
}

/**
 * Distance sums for |x − y| in O(n log n): Σ|xᵢ − xₚ| over earlier i from the count and sum of
 * earlier values below xₚ (a Fenwick tree over ranks), over all i from sorted prefix sums; ties
 * add 0 whichever side they are counted on. This makes each permutation of the test cheap.
 */
function absoluteDistanceSums(values: readonly number[]): { toBefore: Float64Array; toAfter: Float64Array } {
  const n = values.length;
  const sorted = Float64Array.from(values).sort();
  const prefix = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) prefix[i + 1] = (prefix[i] as number) + (sorted[i] as number);
  const count = new Float64Array(n + 1);
  const sum = new Float64Array(n + 1);
  const toBefore = new Float64Array(n);
  const toAfter = new Float64Array(n);
  let seenSum = 0;
  for (let p = 0; p < n; p++) {
    const v = values[p] as number;
    const rank = lowerBound(sorted, v);
    let below = 0;
    let belowSum = 0;
    for (let k = rank; k > 0; k -= k & -k) {
      below += count[k] as number;
      belowSum += sum[k] as number;
    }
    const before = v * below - belowSum + (seenSum - belowSum) - v * (p - below);
    const total = v * rank - (prefix[rank] as number) + ((prefix[n] as number) - (prefix[rank] as number)) - v * (n - rank);
    toBefore[p] = Math.max(0, before);
    toAfter[p] = Math.max(0, total - before);
    for (let k = rank + 1; k <= n; k += k & -k) {
      count[k] = (count[k] as number) + 1;
      sum[k] = (sum[k] as number) + v;
    }
    seenSum += v;
  }
  return { toBefore, toAfter };
}

function lowerBound(sorted: Float64Array, v: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as number) < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** q̂ at every split τ (NaN where a side has fewer than 2 values). */
export function qHatCurve(values: readonly number[], alpha = 1): Float64Array {
  const n = values.length;
  const { within, withinAfter, across } = splitSums(values, alpha);
  const out = new Float64Array(n + 1).fill(Number.NaN);
  for (let m = 2; m <= n - 2; m++) {
    const k = n - m;
    const e = (2 * (across[m] as number)) / (m * k) - (within[m] as number) / ((m * (m - 1)) / 2) - (withinAfter[m] as number) / ((k * (k - 1)) / 2);
    out[m] = ((m * k) / n) * e;
  }
  return out;
}

function bestSplit(values: readonly number[], alpha: number, minSegment: number): Split | null {
  const n = values.length;
  if (n < 2 * minSegment) return null;
  const q = qHatCurve(values, alpha);
  let best: Split | null = null;
  for (let tau = minSegment; tau <= n - minSegment; tau++) {
    const v = q[tau] as number;
    if (!best || v > best.qHat) best = { tau, qHat: v };
  }
  return best;
}

function describe(series: readonly number[], points: readonly { index: number; p: number; qHat: number }[]): ChangePoint[] {
  const sorted = [...points].sort((a, b) => a.index - b.index);
  const bounds = [0, ...sorted.map((c) => c.index), series.length];
  return sorted.map((c, i) => {
    const beforeSegment = { start: bounds[i] as number, end: c.index };
    const afterSegment = { start: c.index, end: bounds[i + 2] as number };
    const beforeValues = series.slice(beforeSegment.start, beforeSegment.end);
    const afterValues = series.slice(afterSegment.start, afterSegment.end);
    const before = median(beforeValues);
    const after = median(afterValues);
    return {
      index: c.index,
      before,
      after,
      meanBefore: mean(beforeValues),
      meanAfter: mean(afterValues),
      changePercent: before === 0 ? null : (after / before - 1) * 100,
      p: c.p,
      qHat: c.qHat,
      beforeSegment,
      afterSegment,
    };
  });
}
