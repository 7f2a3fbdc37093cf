// One fuzz session on a migrated database: a production server on it (test/reliability/processes.ts),
// the targets (fuzz-targets.ts), schemathesis (api-fuzz.ts), then the partial-write rules
// (partial-writes.ts). Shared by the reliability test and scripts/fuzz-api.ts.
import { createPrismaClient } from "~/server/db/client";
import { startServer } from "../reliability/processes";
import { runApiFuzz, type FuzzResult } from "./api-fuzz";
import { prepareFuzzTargets } from "./fuzz-targets";
import { partialWrites } from "./partial-writes";

export interface FuzzSession {
  result: FuzzResult;
  /** Broken partial-write rules, each with example row ids; empty when the database is whole. */
  partialWrites: string[];
  /** The server's last lines of output (its log of each 500 names the error). */
  serverLog: string;
}

export async function fuzzSession(
  databaseUrl: string,
  options: { maxExamples: number; seed: number; workers?: number; reportDir?: string; log?: (line: string) => void },
): Promise<FuzzSession> {
  const server = await startServer({ databaseUrl });
  const db = createPrismaClient(databaseUrl);
  try {
    const targets = await prepareFuzzTargets(db, server.url);
    options.log?.(`fuzzing ${server.url} with up to ${options.maxExamples} examples per operation and phase, seed ${options.seed}…`);
    const result = await runApiFuzz({ ...options, baseUrl: server.url, targets });
    return { result, partialWrites: await partialWrites(db), serverLog: server.tail(200) };
  } finally {
    await db.$disconnect();
    await server.stop("SIGTERM");
  }
}
