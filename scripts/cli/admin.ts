// `versus admin …`: run where the server's DATABASE_URL is set (or next to its embedded database).
//   create-key --project <slug> [--name …] [--start-runs]   creates the project if needed, prints a new API key
//   setup-link [--url …]                      prints a one-time link that creates the first owner
//   reset-password --email …                  gives an account a new random password, ends its sessions
import { openDatabase } from "../lib/database";

async function withDatabase<T>(fn: (db: import("../../server/db/client").Db) => Promise<T>): Promise<T> {
  const database = await openDatabase();
  process.env.DATABASE_URL = database.url;
  const { createPrismaClient } = await import("../../server/db/client");
  const db = createPrismaClient(database.url);
  try {
    return await fn(db);
  } finally {
    await db.$disconnect();
    await database.embedded?.stop();
  }
}

export async function setupLinkCommand(options: { url?: string }) {
  const { issueSetupLink } = await import("../../server/auth/installation");
  const { defaultPublicOrigin } = await import("../../server/http/public-origin");
  await withDatabase(async (db) => {
    const link = await issueSetupLink(db, options.url ?? defaultPublicOrigin());
    if (!link) throw new Error("Versus already has an account; the first owner can invite people from a project's Members page");
    console.error(`one-time setup link, valid until ${link.expiresAt.toISOString()}:`);
    console.log(link.url);
  });
}

export async function resetPasswordCommand(options: { email: string }) {
  const { resetPassword } = await import("../../server/auth/reset-password");
  await withDatabase(async (db) => {
    const reset = await resetPassword(db, options.email);
    console.error(`new password for ${reset.email} (shown once; they can change it on their account page):`);
    console.log(reset.password);
  });
}

export async function createKeyCommand(options: { project: string; name?: string; startRuns?: boolean }) {
  const { createApiKey } = await import("../../server/projects/api-keys");
  const { createProject } = await import("../../server/projects/projects");
  const { ZProjectInput } = await import("../../server/schemas/project");
  await withDatabase(async (db) => {
    if (!(await db.project.findUnique({ where: { slug: options.project } }))) {
      // The installation's first owner owns it, so someone can see it in the UI.
      const firstUser = await db.user.findFirst({ orderBy: { createdAt: "asc" }, select: { id: true } });
      await createProject(db, ZProjectInput.parse({ name: options.project, slug: options.project }), firstUser?.id);
      console.error(`created project "${options.project}"`);
    }
    const key = await createApiKey(
      db,
      options.project,
      options.name ?? `created by versus admin ${new Date().toISOString().slice(0, 10)}`,
      undefined,
      options.startRuns ? "run" : "upload",
    );
    console.error(
      `API key "${key.name}" for project "${options.project}", ${key.scope === "run" ? "may start runs" : "uploads only"} (shown once; store it now):`,
    );
    console.log(key.secret);
  });
}
