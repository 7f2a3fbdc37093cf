// SQL straight on the e2e installation's embedded PostgreSQL, for states only an old database can
// be in (a figure stored before ingest refused it, a summary the run-value migration flagged).
import path from "node:path";
import pg from "pg";
import { embeddedUrl, readEmbeddedCredentials } from "../server/db/embedded-postgres";
import { e2eDataDir, e2eEmbeddedPgPort } from "./installation";

export async function sql(text: string, values: unknown[]) {
  const credentials = readEmbeddedCredentials(path.resolve(e2eDataDir));
  if (!credentials) throw new Error(`no embedded PostgreSQL credentials under ${e2eDataDir}`);
  const client = new pg.Client({ connectionString: embeddedUrl(credentials, e2eEmbeddedPgPort, "versus") });
  await client.connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end();
  }
}
