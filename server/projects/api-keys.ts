// Project API keys: shown once at creation, stored as a SHA-256 of the secret, revocable.
// A key reaches only its own project.
import { newSecret, presentedSecret } from "../auth/secret-tokens";
import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { preparedQuery } from "../db/prepared-statements";
import { AppError } from "../core/errors";
import type { TApiKeyScope } from "../schemas/api-key";
import { getProjectBySlug } from "./projects";
import { forgetKeptApiKeys, type ApiKeyCache } from "./api-key-cache";

export async function createApiKey(db: Db, projectSlug: string, name: string, createdById?: string, scope: TApiKeyScope = "upload") {
  const project = await getProjectBySlug(db, projectSlug);
  const { secret, prefix, hash } = newSecret("vs_");
  const key = await db.apiKey.create({ data: { projectId: project.id, name, prefix, secretHash: hash, createdById, scope } });
  return { id: key.id, name: key.name, prefix: key.prefix, scope: key.scope, createdAt: key.createdAt, secret };
}

export async function listApiKeys(db: Db, projectSlug: string) {
  const project = await getProjectBySlug(db, projectSlug);
  return db.apiKey.findMany({
    where: { projectId: project.id },
    orderBy: [{ revokedAt: { sort: "desc", nulls: "first" } }, { createdAt: "desc" }],
    select: {
      id: true,
      name: true,
      prefix: true,
      scope: true,
      createdAt: true,
      lastUsedAt: true,
      revokedAt: true,
      createdBy: { select: { name: true, email: true } },
    },
  });
}

export async function revokeApiKey(db: Db, projectSlug: string, keyId: string) {
  const project = await getProjectBySlug(db, projectSlug);
  const { count } = await db.apiKey.updateMany({ where: { id: keyId, projectId: project.id, revokedAt: null }, data: { revokedAt: new Date() } });
  if (count === 0) throw new AppError("NOT_FOUND", "No active API key with that id in this project");
  forgetKeptApiKeys();
}

export interface ApiKeyPrincipal {
  keyId: string;
  keyName: string;
  /** upload: results, imports and reads; run: also start and cancel batches. */
  scope: TApiKeyScope;
  projectId: string;
  projectSlug: string;
}

/** A key as authentication reads it. */
export interface StoredApiKey {
  id: string;
  name: string;
  scope: TApiKeyScope;
  projectId: string;
  projectSlug: string;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/**
 * Resolves `Authorization: Bearer <key>` to the key's project, or throws 401 saying what is wrong.
 * With `kept` (the REST routes: apiKeyCache()), a key read before is not read again.
 */
export async function authenticateApiKey(db: Db, authorization: string | null, kept?: ApiKeyCache): Promise<ApiKeyPrincipal> {
  const { hash } = presentedSecret(authorization, "project API key");
  const key = kept ? await kept.get(hash, () => readApiKey(db, hash)) : await readApiKey(db, hash);
  if (!key) throw new AppError("UNAUTHORIZED", "Unknown API key");
  if (key.revokedAt) throw new AppError("UNAUTHORIZED", `API key "${key.name}" was revoked on ${key.revokedAt.toISOString().slice(0, 10)}`);
  // Record use at most once a minute: a busy CI must not turn every upload into an extra write.
  // The kept key is marked at once, so the calls meanwhile do not write it too.
  if (!key.lastUsedAt || Date.now() - key.lastUsedAt.getTime() > 60_000) {
    key.lastUsedAt = new Date();
    await db.apiKey.update({ where: { id: key.id }, data: { lastUsedAt: key.lastUsedAt } });
  }
  return { keyId: key.id, keyName: key.name, scope: key.scope, projectId: key.projectId, projectSlug: key.projectSlug };
}

async function readApiKey(db: Db, secretHash: string): Promise<StoredApiKey | undefined> {
  // A prepared statement on the pool (prepared-statements.ts), not Prisma's pipeline.
  const [key] = await preparedQuery<StoredApiKey>(
    db,
    Prisma.sql`SELECT k."id", k."name", k."scope"::text AS "scope", k."projectId", p."slug" AS "projectSlug", k."lastUsedAt", k."revokedAt"
      FROM "ApiKey" k JOIN "Project" p ON p."id" = k."projectId" WHERE k."secretHash" = ${secretHash}`,
  );
  return key;
}
