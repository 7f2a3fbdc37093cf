// Wakes agents' waiting claims when work of their project appears (server/db/wakeups.ts on the
// jobs channel): whatever queues or returns a job NOTIFYs with the project's id, and the claims
// of that project look again.
import type { Db, Prisma } from "../db/client";
import { Wakeups } from "../db/wakeups";
import { requiredEnv } from "../core/env";

export type { WakeReason, WorkSubscription } from "../db/wakeups";

export const JOBS_CHANNEL = "versus_jobs";

/** Announces new or returned work of `projectId`; inside a transaction, at its commit. */
export async function notifyWork(db: Db | Prisma.TransactionClient, projectId: string): Promise<void> {
  await db.$executeRaw`SELECT pg_notify(${JOBS_CHANNEL}, ${projectId})`;
}

/** The jobs channel's listener: its keys are project ids. */
export class JobWakeups extends Wakeups {
  constructor(databaseUrl: string) {
    super(databaseUrl, JOBS_CHANNEL, "job wakeups");
  }
}

const globalForWakeups = globalThis as unknown as { versusJobWakeups?: JobWakeups };

/** This process's listener on the app's database (cached across Next.js dev reloads). */
export function jobWakeups(): JobWakeups {
  return (globalForWakeups.versusJobWakeups ??= new JobWakeups(requiredEnv("DATABASE_URL")));
}
