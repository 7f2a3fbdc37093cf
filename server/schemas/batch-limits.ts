// How large one press of "Run" may be. The experiment's own schema caps its run counts with it
// (so Run never offers a batch it would refuse), and startBatch refuses anything larger.

/** Largest batch one press of "Run" makes: variants × (warm-up + measured runs) jobs. */
export const MAX_BATCH_JOBS = 20_000;

/** The most warm-up + measured runs per variant when Run queues `variants` variants at once. */
export function maxRunsPerVariant(variants: number): number {
  return Math.floor(MAX_BATCH_JOBS / Math.max(1, variants));
}
