// The database's clock, in UTC like every timestamp Prisma writes: one clock for every lease,
// job and stored run, whichever process writes them.
import { Prisma } from "./generated/client";

export const utcNow = Prisma.sql`(now() AT TIME ZONE 'UTC')`;
