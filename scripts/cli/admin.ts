// `versus admin create-key --project <slug> [--name …]`: run where the server's DATABASE_URL is
// set (or next to its embedded database); creates the project if needed, prints a new API key.
import { openDatabase } from "../lib/database";

export async function createKeyCommand(options: { project: string; name?: string }) {
  const database = await openDatabase();
  process.env.DATABASE_URL = database.url;
  const { createPrismaClient } = await import("../../server/db/client");
  const { createApiKey } = await import("../../server/services/api-keys");
  const { createProject } = await import("../../server/services/projects");
  const { ZProjectInput } = await import("../../server/schemas/project");
  const db = createPrismaClient(database.url);
  try {
    if (!(await db.project.findUnique({ where: { slug: options.project } }))) {
      await createProject(db, ZProjectInput.parse({ name: options.project, slug: options.project }));
      console.error(`created project "${options.project}"`);
    }
    const key = await createApiKey(db, options.project, options.name ?? `created by versus admin ${new Date().toISOString().slice(0, 10)}`);
    console.error(`API key "${key.name}" for project "${options.project}" (shown once; store it now):`);
    console.log(key.secret);
  } finally {
    await db.$disconnect();
    await database.embedded?.stop();
  }
}
