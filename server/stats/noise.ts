// A/A noise estimate: how often the verdict procedure calls a difference where there is none.
// For each variant with at least 2·m runs (m = fewest runs per side the U-test needs at α), its
// runs are split at random into two halves (sizes ⌊n/2⌋ and ⌈n/2⌉) `splits` times with a seeded
// PRNG, each split is tested like a candidate against a baseline (two-sided Mann-Whitney, same
// method rule, p ≤ α ⇒ not no_change), and the fraction of such verdicts is the variant's
// false-positive rate. The experiment's noise level pools all eligible variants.
//
// What it can and cannot show: a random split of one variant's runs is exactly the rank test's
// null (permutation) distribution, so without ties the rate estimates the test's real size at
// these sample sizes (≤ α, e.g. 8/252 ≈ 0.032 for 5 vs 5 at α = 0.05) whatever the values are;
// ties and the normal approximation move it. It does not detect drift between runs (random splits
// mix early and late runs) — the median CI's ± % shows the spread of each variant.
import type { NoiseEstimate, NoiseVariant } from "./schemas";
import { mannWhitneyFromRanks, rankPooled, type MannWhitneyMethod } from "./mann-whitney";
import { mulberry32, shuffled } from "./prng";
import { minReplicates } from "./verdict";

export interface NoiseOptions {
  alpha: number;
  seed: number;
  splits?: number;
  method?: MannWhitneyMethod;
}

export const DEFAULT_SPLITS = 200;

export function aaNoise(variants: readonly { name: string; replicates: readonly number[] }[], options: NoiseOptions): NoiseEstimate {
  const { alpha, seed } = options;
  const splits = options.splits ?? DEFAULT_SPLITS;
  const need = 2 * minReplicates(alpha);
  const random = mulberry32(seed);
  let hits = 0;
  let tried = 0;
  const perVariant: NoiseVariant[] = variants.map((v) => {
    const n = v.replicates.length;
    if (n < need) return { variant: v.name, n, falsePositiveRate: null, splits: 0, reason: `not enough runs: an A/A split needs ≥ ${need} runs (has ${n})` };
    let count = 0;
    // Every split pools the same values: rank them once and shuffle the ranks (the same draws as
    // shuffling the values), so a split costs a shuffle and a sum, not a sort. Hundreds of runs
    // (a history's) made the sorts most of the comparison's time.
    const pooled = rankPooled(v.replicates);
    const ranks = Array.from(pooled.ranks);
    const half = Math.floor(n / 2);
    for (let s = 0; s < splits; s++) {
      const order = shuffled(ranks, random);
      let r1 = 0;
      for (let i = 0; i < half; i++) r1 += order[i] as number;
      const p = mannWhitneyFromRanks(r1, half, n - half, pooled, options.method ?? "auto").p;
      if (p <= alpha) count++;
    }
    hits += count;
    tried += splits;
    return { variant: v.name, n, falsePositiveRate: count / splits, splits, reason: null };
  });
  const note =
    "A/A: each variant's runs split at random into halves and compared with the same test; with a rank test this estimates the test's actual false-positive rate at these run counts (≤ α without ties), not drift between runs.";
  if (tried === 0) {
    const most = Math.max(0, ...variants.map((v) => v.replicates.length));
    return {
      falsePositiveRate: null,
      alpha,
      splitsPerVariant: splits,
      seed,
      variants: perVariant,
      reason: `not enough runs: an A/A split needs ≥ ${need} runs of one variant (most has ${most})`,
      note,
    };
  }
  return { falsePositiveRate: hits / tried, alpha, splitsPerVariant: splits, seed, variants: perVariant, reason: null, note };
}
