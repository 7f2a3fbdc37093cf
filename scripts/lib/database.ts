// Where the scripts get their database: DATABASE_URL when set, otherwise the project-local
// embedded PostgreSQL under VERSUS_DATA_DIR (default .data/), started for the caller.
import path from "node:path";
import { startEmbeddedPostgres, type EmbeddedServer } from "../../server/db/embedded-postgres";
import { scriptEnv } from "./env";

export interface Database {
  url: string;
  /** The embedded server when one was started for this process, so the caller can stop it. */
  embedded?: EmbeddedServer;
}

export async function openDatabase(log: (line: string) => void = () => {}): Promise<Database> {
  if (scriptEnv.DATABASE_URL) return { url: scriptEnv.DATABASE_URL };
  const dataDir = path.resolve(scriptEnv.VERSUS_DATA_DIR);
  const embedded = await startEmbeddedPostgres({ dataDir, port: scriptEnv.VERSUS_EMBEDDED_PG_PORT, log });
  await embedded.ensureDatabase("versus");
  return { url: embedded.urlFor("versus"), embedded };
}
