// The lock a job group's ready, complete and lost-shard settling each take for their transaction
// (./group-ready.ts, ./complete-shard.ts, ./lost-shards.ts): one key per group, so a shard that
// reports ready, completes or is found lost sees the others' writes whole, or waits for them.
import type { Db } from "../db/client";

export async function lockJobGroup(tx: Pick<Db, "$executeRaw">, groupId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${groupId}))`;
}
