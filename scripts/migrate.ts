// `npm run db:migrate`: applies pending migrations to DATABASE_URL (or the embedded database).
import { migrate } from "../server/db/migrator";
import { openDatabase } from "./lib/database";

const db = await openDatabase();
try {
  const result = await migrate(db.url);
  for (const name of result.applied) console.log(`applied ${name}`);
  for (const name of result.modified) console.warn(`warning: ${name} was changed after it was applied`);
  console.log(result.applied.length ? `${result.applied.length} migration(s) applied` : "database is up to date");
} finally {
  await db.embedded?.stop();
}
