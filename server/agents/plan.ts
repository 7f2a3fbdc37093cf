// The order of a batch's jobs: warm-ups first (they warm the machine, so they go before any
// measured run), then the measured runs. Interleaved: A B A B … round by round, so both sides
// of a comparison meet the same drift (thermal, noisy neighbours). Random: a seeded shuffle,
// reproducible from the seed shown with the batch.
import { mulberry32, shuffled } from "../stats/prng";
import type { TJobOrder } from "../schemas/jobs";

export interface PlannedJob<V> {
  variant: V;
  warmup: boolean;
  /** The job's index among its variant's warm-ups, or among its measured runs. */
  repetition: number;
  /** Place in the batch, from 0. */
  position: number;
}

export interface BatchPlan<V> {
  variants: readonly V[];
  warmupRuns: number;
  measuredRuns: number;
  order: TJobOrder;
  /** Used by the random order only. */
  seed: number;
}

export function planBatch<V>(plan: BatchPlan<V>): PlannedJob<V>[] {
  const rounds = (count: number, warmup: boolean) =>
    Array.from({ length: count }, (_, repetition) => plan.variants.map((variant) => ({ variant, warmup, repetition }))).flat();
  let warmups = rounds(plan.warmupRuns, true);
  let measured = rounds(plan.measuredRuns, false);
  if (plan.order === "random") {
    const random = mulberry32(plan.seed);
    warmups = shuffled(warmups, random);
    measured = shuffled(measured, random);
  }
  return [...warmups, ...measured].map((job, position) => ({ ...job, position }));
}

/** A seed for a random order when the user gave none: any non-negative 31-bit integer. */
export function newSeed(random: () => number = Math.random): number {
  return Math.floor(random() * 2 ** 31);
}
