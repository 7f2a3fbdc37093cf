// An experiment's last change, as the experiments list sorts by it and the pages show it: the
// later of its own row's last edit (Experiment.updatedAt) and its newest run. Stored runs do not
// write the experiment's row: an UPDATE of it waits for every upload holding the row's shared lock
// (ingest-results.ts) and makes each upload arriving meanwhile wait behind it, which under a
// team's CI load queued uploads for seconds (bench/load.ts). The newest run is one look-up in the
// index on Run (experimentId, createdAt).
import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { preparedQuery } from "../db/prepared-statements";

/** A sub-select giving the newest run's time of the experiment whose id is in `experimentId` (a column, e.g. `e."id"`). */
export const lastRunAtSql = (experimentId: string) => Prisma.sql`(SELECT max(r."createdAt") FROM "Run" r WHERE r."experimentId" = ${Prisma.raw(experimentId)})`;

/** The later of an edit and the newest run (none: the edit). */
export function lastChange(updatedAt: Date, lastRunAt: Date | null): Date {
  return lastRunAt && lastRunAt > updatedAt ? lastRunAt : updatedAt;
}

/** Each experiment of the project's last change, by experiment id. */
export async function lastChanges(db: Db, projectId: string): Promise<Map<string, Date>> {
  const rows = await preparedQuery<{ id: string; updatedAt: Date; lastRunAt: Date | null }>(
    db,
    Prisma.sql`
    SELECT e."id", e."updatedAt", ${lastRunAtSql(`e."id"`)} AS "lastRunAt"
    FROM "Experiment" e WHERE e."projectId" = ${projectId}`,
  );
  return new Map(rows.map((row) => [row.id, lastChange(row.updatedAt, row.lastRunAt)]));
}

/** Newest change first. */
export function byLastChange<T extends { id: string }>(experiments: T[], changes: Map<string, Date>): T[] {
  const at = (experiment: T) => changes.get(experiment.id)?.getTime() ?? 0;
  return [...experiments].sort((a, b) => at(b) - at(a));
}
