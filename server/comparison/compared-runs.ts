// Which runs an experiment's comparison compares: its succeeded runs, except those of A/A batches
// ("Measure noise"). An A/A batch runs only the baseline, later than the interleaved A/B batches:
// pooled with them it would tip the baseline's side towards whatever the machine was doing then
// (drift is what interleaving cancels) and shift the verdict by measuring noise. Its runs are the
// noise floor's (noise-floor.ts); a batch's own comparison reads exactly its own runs, A/A or not.
// Runs whose load generators could not keep the asked rate are compared, and said to be.
import type { Db, Prisma } from "../db/client";
import { GENERATOR_LIMITED_TAG } from "../runs/generator-limits";

/** The runs to compare: the batch's when `batchId` is given, else every run outside A/A batches. */
export function comparedRunsWhere(experimentId: string, batchId?: string): Prisma.RunWhereInput {
  return {
    experimentId,
    status: "succeeded",
    ...(batchId ? { job: { is: { batchId } } } : { NOT: { job: { is: { batch: { noise: true } } } } }),
  };
}

/** What the comparison says about the A/A runs it left out, per variant ("10 runs of A from A/A batches …"); none with `batchId`. */
export async function noiseRunsLeftOut(db: Db, experimentId: string, variants: { id: string; name: string }[], batchId?: string): Promise<string[]> {
  if (batchId) return [];
  const counts = await db.run.groupBy({
    by: ["variantId"],
    where: { experimentId, status: "succeeded", job: { is: { batch: { noise: true } } } },
    _count: { _all: true },
  });
  return variants.flatMap((variant) => {
    const count = counts.find((row) => row.variantId === variant.id)?._count._all ?? 0;
    return count === 0
      ? []
      : [
          `${count} run${count === 1 ? "" : "s"} of ${variant.name} from A/A batches (Measure noise) ${count === 1 ? "is" : "are"} left out: they measure the noise floor`,
        ];
  });
}

/**
 * A note per variant whose compared runs were limited by their load generators (tagged by
 * server/runs/generator-limits.ts): their figures measure the generators, not the target.
 */
export async function generatorLimitedRuns(db: Db, runFilter: Prisma.RunWhereInput, variants: { id: string; name: string }[]): Promise<string[]> {
  const counts = await db.run.groupBy({ by: ["variantId"], where: { AND: [runFilter, { tags: { has: GENERATOR_LIMITED_TAG } }] }, _count: { _all: true } });
  return variants.flatMap((variant) => {
    const count = counts.find((row) => row.variantId === variant.id)?._count._all ?? 0;
    return count === 0
      ? []
      : [`the load generators, not the target, limited ${count} run${count === 1 ? "" : "s"} of ${variant.name}: their agents could not keep the asked rate`];
  });
}
