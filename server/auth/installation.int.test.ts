// A new installation, on a database of its own (the shared test database already has users):
// the cookie secret is made once, the setup link is the only way to the first account, it works
// once, and a refused setup leaves no user behind.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createPrismaClient, type Db } from "../db/client";
import { migrate } from "../db/migrator";
import { createThrowawayDatabase, type ThrowawayDatabase } from "~/test/throwaway-database";
import { createProject } from "../projects/projects";
import { completeSetup, ensureAuthSecret, issueSetupLink, setupLinkState } from "./installation";

let database: ThrowawayDatabase;
let db: Db;

beforeAll(async () => {
  database = await createThrowawayDatabase(inject("adminDatabaseUrl"), "setup");
  await migrate(database.url);
  db = createPrismaClient(database.url);
  await createProject(db, { name: "Examples", slug: "examples", description: "" });
});

afterAll(async () => {
  await db.$disconnect();
  await database.drop();
});

const account = { name: "Ada Owner", email: "ada@example.test", password: "a long enough password" };
const tokenOf = (url: string) => url.split("/setup/")[1]!;

describe("a new installation", () => {
  it("makes its cookie secret once and keeps it", async () => {
    const first = await ensureAuthSecret(db);
    expect(first.length).toBeGreaterThanOrEqual(43);
    expect(await ensureAuthSecret(db)).toBe(first);
  });

  it("only the newest setup link works, and a wrong one is refused without writing anything", async () => {
    const old = await issueSetupLink(db, "http://localhost:3000/");
    const link = await issueSetupLink(db, "http://localhost:3000");
    expect(link!.url).toMatch(/^http:\/\/localhost:3000\/setup\/vsetup_[A-Za-z0-9_-]{43}$/);
    expect(await setupLinkState(db, tokenOf(old!.url))).toBe("invalid");
    expect(await setupLinkState(db, tokenOf(link!.url))).toBe("valid");
    await expect(completeSetup(db, tokenOf(old!.url), account)).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await db.user.count()).toBe(0);
    // Only the hash is kept.
    const stored = JSON.stringify((await db.instanceSetting.findUniqueOrThrow({ where: { key: "setup-token" } })).value);
    expect(stored).not.toContain(tokenOf(link!.url));
  });

  it("an expired link is refused", async () => {
    const link = await issueSetupLink(db, "http://localhost:3000");
    await db.instanceSetting.update({
      where: { key: "setup-token" },
      data: { value: { ...(await storedValue()), expiresAt: new Date(Date.now() - 1000).toISOString() } },
    });
    expect(await setupLinkState(db, tokenOf(link!.url))).toBe("invalid");
    await expect(completeSetup(db, tokenOf(link!.url), account)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("the setup link makes the first owner of every existing project, once; a second browser racing it gets nothing", async () => {
    const link = await issueSetupLink(db, "http://localhost:3000");
    const token = tokenOf(link!.url);
    const results = await Promise.allSettled([completeSetup(db, token, account), completeSetup(db, token, { ...account, email: "eve@example.test" })]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(results.find((r) => r.status === "rejected")).toMatchObject({ reason: { code: "CONFLICT" } });
    const users = await db.user.findMany({ include: { memberships: { include: { project: true } } } });
    expect(users).toHaveLength(1);
    expect(users[0]!.memberships.map((m) => [m.project.slug, m.role])).toEqual([["examples", "owner"]]);
    expect(await setupLinkState(db, token)).toBe("done");
    expect(await issueSetupLink(db, "http://localhost:3000")).toBeNull();
    expect(await db.instanceSetting.findUnique({ where: { key: "setup-token" } })).toBeNull();
  });
});

async function storedValue() {
  return (await db.instanceSetting.findUniqueOrThrow({ where: { key: "setup-token" } })).value as Record<string, string>;
}
