// "Runs were stored": the one way the rest of Versus learns of new runs. Whatever stores runs with
// a commit (an upload, an import, an agent's complete) marks their experiment in the same
// transaction, so the mark commits with the runs or not at all and survives a restart; the
// background worker (server/background/worker.ts) claims marks, recomputes the history's change
// points and evaluates the alert rules. Runs without a commit are in no history and mark nothing.
// A mark is a row of RunsStoredTask.
import { v7 as uuidv7 } from "uuid";
import type { Db, Prisma as PrismaTypes } from "../db/client";
import { Prisma } from "../db/generated/client";
import { utcNow } from "../db/utc-now";

/** How long after the runs a mark is due: a burst of uploads or completes shares one refresh. */
export const MARK_DELAY_MS = 1000;

const delay = Prisma.sql`make_interval(secs => ${MARK_DELAY_MS / 1000})`;

/**
 * The INSERT of a mark for `experimentId` as a statement of its own or a data-modifying CTE
 * (`WITH marked AS (…)`): the agent's complete stores its run in one statement.
 */
export function markRunsStoredSql(experimentId: PrismaTypes.Sql | string, when: PrismaTypes.Sql = Prisma.sql`TRUE`): PrismaTypes.Sql {
  return Prisma.sql`
    INSERT INTO "RunsStoredTask" ("id", "experimentId", "runAfter", "createdAt")
    SELECT ${uuidv7()}, ${experimentId}, ${utcNow} + ${delay}, ${utcNow} WHERE ${when}`;
}

/** Marks the experiment's runs as stored, inside the transaction that stored them. */
export async function markRunsStored(tx: Db | PrismaTypes.TransactionClient, experimentId: string): Promise<void> {
  await tx.$executeRaw(markRunsStoredSql(experimentId));
}
