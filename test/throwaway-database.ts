// A database of its own for a test that must start from nothing (migrations, rollbacks), on the
// embedded server the integration run started. Dropped again, connections and all, by drop().
import crypto from "node:crypto";
import pg from "pg";

export interface ThrowawayDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

export async function createThrowawayDatabase(adminDatabaseUrl: string, label = "tmp"): Promise<ThrowawayDatabase> {
  const name = `versus_${label}_${process.pid}_${crypto.randomBytes(4).toString("hex")}`;
  await admin(adminDatabaseUrl, `CREATE DATABASE ${pg.escapeIdentifier(name)}`);
  const url = new URL(adminDatabaseUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    // FORCE: a pool a failed test left open must not keep the database alive.
    drop: () => admin(adminDatabaseUrl, `DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`),
  };
}

async function admin(adminDatabaseUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminDatabaseUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Runs `fn` with a connected client, closing it whatever happens. */
export async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
