// `npm run db:seed`: loads the example data unless this installation already had it once.
import { openDatabase } from "./lib/database";

const database = await openDatabase();
process.env.DATABASE_URL = database.url;
// Imported after DATABASE_URL is known: the server's env is validated when the client loads.
const { createPrismaClient } = await import("../server/db/client");
const { loadExampleDataOnce } = await import("../server/examples/example-data");
const db = createPrismaClient(database.url);
try {
  console.log(`example data: ${await loadExampleDataOnce(db)}`);
} finally {
  await db.$disconnect();
  await database.embedded?.stop();
}
