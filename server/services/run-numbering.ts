// Repetition numbers of runs and positions of variants and metrics: allocated as "highest so far
// + 1" inside the transaction that stores them, under the experiment's row lock (row-locks.ts),
// so concurrent writers never hand out one number twice; the database's unique constraints
// (prisma/schema.prisma) hold the line behind them. Repetitions count from 0 per variant.
import type { Prisma } from "../db/client";
import { AppError, type FieldIssue } from "../errors";

type Tx = Prisma.TransactionClient;

export interface RunToNumber {
  variantId: string;
  /** For messages. */
  variantName: string;
  /** Given by the uploader; otherwise the next free number is allocated. */
  repetition?: number;
  /** Where the run is in the request, e.g. ["runs", 3]. */
  path: (string | number)[];
}

/**
 * The repetition of each run, in order. An explicit repetition the variant already has is refused
 * (409): a run is never stored under another run's number. Unnumbered runs follow the highest
 * repetition stored or given in this request, so they never collide with the explicit ones.
 * Call with the experiment locked.
 */
export async function allocateRepetitions(tx: Tx, runs: RunToNumber[]): Promise<number[]> {
  const explicit = runs.filter((run): run is RunToNumber & { repetition: number } => run.repetition !== undefined);
  if (explicit.length) {
    const taken = await tx.run.findMany({
      where: { OR: explicit.map((run) => ({ variantId: run.variantId, repetition: run.repetition })) },
      select: { variantId: true, repetition: true },
    });
    const isTaken = new Set(taken.map((run) => `${run.variantId}:${run.repetition}`));
    const issues: FieldIssue[] = explicit
      .filter((run) => isTaken.has(`${run.variantId}:${run.repetition}`))
      .map((run) => ({
        path: [...run.path, "repetition"],
        message: `variant "${run.variantName}" already has a run with repetition ${run.repetition}; leave repetition out to number the run automatically`,
      }));
    if (issues.length) throw new AppError("CONFLICT", issues.map((issue) => issue.message).join("; "), { fieldIssues: issues });
  }

  const variantIds = [...new Set(runs.map((run) => run.variantId))];
  const stored = await tx.run.groupBy({ by: ["variantId"], where: { variantId: { in: variantIds } }, _max: { repetition: true } });
  const next = new Map(stored.map((row) => [row.variantId, (row._max.repetition ?? -1) + 1]));
  for (const run of explicit) next.set(run.variantId, Math.max(next.get(run.variantId) ?? 0, run.repetition + 1));
  return runs.map((run) => {
    if (run.repetition !== undefined) return run.repetition;
    const repetition = next.get(run.variantId) ?? 0;
    next.set(run.variantId, repetition + 1);
    return repetition;
  });
}

/** Where the next variant or metric of an experiment goes: after the last one. Call with the experiment locked. */
export function nextPosition(rows: { position: number }[]): number {
  return rows.reduce((highest, row) => Math.max(highest, row.position + 1), 0);
}

/** The same explicit repetition twice for one variant in one request: refused before anything is stored. */
export function repeatedRepetitions(runs: { variant: string; repetition?: number }[]): FieldIssue[] {
  const seen = new Map<string, number>();
  const issues: FieldIssue[] = [];
  runs.forEach((run, index) => {
    if (run.repetition === undefined) return;
    const key = JSON.stringify([run.variant, run.repetition]);
    const first = seen.get(key);
    if (first === undefined) seen.set(key, index);
    else issues.push({ path: ["runs", index, "repetition"], message: `run ${first} of this upload is already repetition ${run.repetition} of variant "${run.variant}"` });
  });
  return issues;
}
