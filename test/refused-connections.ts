// The states in which a running PostgreSQL refuses new connections, made for real on a test's own
// database (./own-database.ts): the database closed to connections (55000) and the server full
// (53300). Each ends the sessions already open to the database, as an administrator doing this
// would, so the application's pools must connect anew and meet the refusal.
import pg from "pg";
import { endSessionsOf, type OwnDatabase } from "./own-database";

/** `ALTER DATABASE … ALLOW_CONNECTIONS false`, and the database's sessions ended; the returned function opens it again. */
export async function closeToConnections(database: OwnDatabase): Promise<() => Promise<void>> {
  await asAdmin(database, async (admin) => {
    await admin.query(`ALTER DATABASE ${pg.escapeIdentifier(database.name)} ALLOW_CONNECTIONS false`);
    await endSessionsOf(admin, database.name);
  });
  return () => asAdmin(database, (admin) => admin.query(`ALTER DATABASE ${pg.escapeIdentifier(database.name)} ALLOW_CONNECTIONS true`).then(() => undefined));
}

/**
 * Takes every connection slot of the server (max_connections, the superuser's reserved ones too:
 * the embedded server's user is a superuser), after ending the database's sessions: whoever
 * connects next gets 53300 "sorry, too many clients already". The returned function gives them back.
 */
export async function fillConnectionSlots(database: OwnDatabase): Promise<() => Promise<void>> {
  const held: pg.Client[] = [];
  const fill = async () => {
    for (;;) {
      const client = new pg.Client({ connectionString: database.adminUrl });
      try {
        await client.connect();
      } catch (error) {
        if ((error as { code?: string }).code === "53300") return;
        throw error;
      }
      client.on("error", () => undefined); // ended by the server when the test is done with it
      held.push(client);
    }
  };
  await fill();
  // The slots the database's own sessions held are freed by ending them; take those too. A pool
  // that reconnects between the ending and the taking keeps its slot: end it again until a look
  // after the taking finds none of the database's sessions left.
  const [admin] = held;
  if (!admin) throw new Error("could not open a single connection");
  for (let attempt = 1; ; attempt++) {
    await endSessionsOf(admin, database.name);
    await fill();
    const { rows } = await admin.query<{ count: string }>("SELECT count(*) FROM pg_stat_activity WHERE datname = $1", [database.name]);
    if (Number(rows[0]?.count) === 0) break;
    if (attempt === 20) throw new Error(`the database's sessions took the freed slots again, 20 times`);
  }
  return async () => {
    await Promise.all(held.splice(0).map((client) => client.end().catch(() => undefined)));
  };
}

/**
 * A smart shutdown under way (57P03 "the database system is shutting down"), the database's
 * sessions ended (OwnDatabase.shutDownSmartly). The returned function lets the shutdown finish and
 * starts PostgreSQL again.
 */
export async function shutDownSmartly(database: OwnDatabase): Promise<() => Promise<void>> {
  const shutdown = await database.shutDownSmartly();
  return async () => {
    await shutdown.finish();
    await database.start();
  };
}

async function asAdmin<T>(database: OwnDatabase, work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: database.adminUrl });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}
