// Row locks that serialize the writers of one experiment's numbered rows. Repetition numbers and
// positions are allocated as "highest so far + 1", which is only safe while no other transaction
// can add a run, variant or metric to the same experiment: every such writer first takes the
// experiment's row lock, and holds it until it commits. FOR NO KEY UPDATE conflicts with itself
// but not with the FOR KEY SHARE locks that foreign-key checks take, so readers and inserts that
// merely reference the experiment are not held up.
import type { Prisma } from "../db/client";

type Tx = Prisma.TransactionClient;

/** Locks the experiment with this slug in the project until the transaction ends; its id, or null. */
export async function lockExperiment(tx: Tx, projectId: string, slug: string): Promise<string | null> {
  const rows = await tx.$queryRaw<{ id: string }[]>`SELECT "id" FROM "Experiment" WHERE "projectId" = ${projectId} AND "slug" = ${slug} FOR NO KEY UPDATE`;
  return rows[0]?.id ?? null;
}

/**
 * Locks the project against other creations of experiments until the transaction ends, so a slug
 * derived from a title is picked after every concurrent creation has committed its own.
 */
export async function lockProjectForNewExperiment(tx: Tx, projectId: string): Promise<void> {
  await tx.$queryRaw`SELECT "id" FROM "Project" WHERE "id" = ${projectId} FOR NO KEY UPDATE`;
}
