// Kept API keys on a real PostgreSQL: a key read once is not read again while the process
// listens; every change of what it grants, made by another process (another connection here) or
// by hand in SQL, is heard and the key is read afresh: revoked, renamed, deleted with its project;
// what was read while a key changed is not kept; a lost LISTEN connection, or none at all, means
// every key is read again.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { createPrismaClient } from "../db/client";
import { poolOf } from "../db/prepared-statements";
import { AppError } from "../core/errors";
import { ApiKeyCache } from "./api-key-cache";
import { authenticateApiKey, createApiKey } from "./api-keys";
import { uploadProject } from "~/test/upload-project";

const url = inject("databaseUrl");
const db = createPrismaClient(url);
// Another process's writes: a connection of its own.
const other = new pg.Client({ connectionString: url });
let projectSlug: string;
let kept: ApiKeyCache;

beforeAll(async () => {
  await other.connect();
  projectSlug = (await uploadProject(db, "kept-keys")).projectSlug;
  kept = new ApiKeyCache(url);
  await kept.ready();
});
afterAll(async () => {
  await kept.close();
  await other.end();
  await db.$disconnect();
});

/** Authenticates `secret` through `cache`, counting the statements it sent. */
async function authenticate(secret: string, cache = kept) {
  const statements = vi.spyOn(poolOf(db), "query");
  try {
    const principal = await authenticateApiKey(db, `Bearer ${secret}`, cache).catch((error: unknown) => {
      if (error instanceof AppError) return error;
      throw error;
    });
    return { principal, statements: statements.mock.calls.length };
  } finally {
    statements.mockRestore();
  }
}

/** What authenticating `secret` answers now: the key's name, or why it was refused. */
async function answerTo(secret: string): Promise<string> {
  const { principal } = await authenticate(secret);
  return principal instanceof AppError ? principal.message : principal.keyName;
}

// A change is heard when its notification arrives: wait for it, bounded.
const heard = { timeout: 10_000, interval: 20 };

describe("kept API keys", () => {
  it("reads a key once; a revocation by another process is heard, and the key is refused", async () => {
    const key = await createApiKey(db, projectSlug, "ci");
    const first = await authenticate(key.secret);
    expect(first.principal).toMatchObject({ keyId: key.id, keyName: "ci", projectSlug });
    expect(first.statements).toBeGreaterThan(0);
    const again = await authenticate(key.secret);
    expect(again).toEqual({ principal: first.principal, statements: 0 });

    await other.query(`UPDATE "ApiKey" SET "revokedAt" = now() WHERE "id" = $1`, [key.id]);
    await expect.poll(() => answerTo(key.secret), heard).toContain('API key "ci" was revoked on');
  });

  it("hears a key renamed by hand, and a key deleted with its project", async () => {
    const { projectSlug: doomed } = await uploadProject(db, "kept-keys-doomed");
    const key = await createApiKey(db, doomed, "before");
    await authenticate(key.secret);
    expect((await authenticate(key.secret)).statements).toBe(0);

    await other.query(`UPDATE "ApiKey" SET "name" = 'after' WHERE "id" = $1`, [key.id]);
    await expect.poll(() => answerTo(key.secret), heard).toBe("after");

    await other.query(`DELETE FROM "Project" WHERE "slug" = $1`, [doomed]);
    await expect.poll(() => answerTo(key.secret), heard).toBe("Unknown API key");
  });

  it("does not take recording a key's use for a change: the key stays kept", async () => {
    const key = await createApiKey(db, projectSlug, "recorded");
    const first = await authenticate(key.secret);
    // Its first use wrote lastUsedAt; a notification of that would have arrived by now.
    expect((await db.apiKey.findUniqueOrThrow({ where: { id: key.id } })).lastUsedAt).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await authenticate(key.secret)).toEqual({ principal: first.principal, statements: 0 });
  });

  it("does not keep what it read while a key changed", async () => {
    const key = await createApiKey(db, projectSlug, "raced");
    // While it is read, this process revokes another key (a notification heard counts the same).
    const stored = await kept.get("raced", async () => {
      kept.forgetAll();
      return { id: key.id, name: "raced", scope: "upload" as const, projectId: "", projectSlug, lastUsedAt: null, revokedAt: null };
    });
    expect(stored?.name).toBe("raced");
    expect(await kept.get("raced", () => Promise.resolve(undefined))).toBeUndefined();
  });

  it("reads every key again once its LISTEN connection was lost, and keeps them again when it is back", async () => {
    const key = await createApiKey(db, projectSlug, "lost");
    await authenticate(key.secret);
    expect((await authenticate(key.secret)).statements).toBe(0);
    await other.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'versus API key changes' AND datname = current_database()`,
    );
    // Lost: the next calls read the key again, until the listener is back and keeps it anew.
    const statements = async () => (await authenticate(key.secret)).statements;
    await expect.poll(statements, { timeout: 15_000, interval: 20 }).toBeGreaterThan(0);
    await expect.poll(statements, { timeout: 15_000, interval: 20 }).toBe(0);
  });

  it("reads every key when it cannot listen", async () => {
    const deaf = new ApiKeyCache("postgresql://versus@127.0.0.1:1/versus");
    try {
      const key = await createApiKey(db, projectSlug, "deaf");
      await deaf.ready();
      expect((await authenticate(key.secret, deaf)).statements).toBeGreaterThan(0);
      const again = await authenticate(key.secret, deaf);
      expect(again.statements).toBeGreaterThan(0);
      expect(again.principal).toMatchObject({ keyName: "deaf" });
    } finally {
      await deaf.close();
    }
  });
});
