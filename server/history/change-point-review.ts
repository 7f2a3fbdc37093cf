// A member acknowledges a change point (seen, it is real), dismisses it (noise, or expected), or
// reopens it. The review is kept when later recomputes find the change point at the same commit
// (change-point-store.ts).
import type { Db } from "../db/client";
import type { ChangePointStatus } from "../db/generated/enums";
import { AppError } from "../core/errors";

export async function reviewChangePoint(
  db: Db,
  projectId: string,
  id: string,
  status: ChangePointStatus,
  userId: string,
): Promise<{ id: string; status: ChangePointStatus }> {
  const { count } = await db.changePoint.updateMany({
    where: { id, experiment: { projectId } },
    data: status === "open" ? { status, reviewedById: null, reviewedAt: null } : { status, reviewedById: userId, reviewedAt: new Date() },
  });
  // Recomputed away meanwhile, or another project's: the same answer, so ids cannot be probed.
  if (count === 0) throw new AppError("NOT_FOUND", `No change point "${id}" in this project (a recompute may have removed it: reload the page)`);
  return { id, status };
}
