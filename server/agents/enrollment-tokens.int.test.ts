// Agent enrollment tokens through tRPC on a real, migrated PostgreSQL: create (secret once, only
// its hash stored), list with status, expiry, revoke, and the check an enrolling agent
// goes through. Every refusal leaves the project's tokens exactly as they were. Files share one
// database, so each test works in a project of its own.
import crypto from "node:crypto";
import type { TRPCError } from "@trpc/server";
import { afterAll, describe, expect, inject, it } from "vitest";
import { hashSecret } from "../auth/secret-tokens";
import { createPrismaClient } from "../db/client";
import { AppError } from "../core/errors";
import { createApiKey } from "../projects/api-keys";
import { verifyEnrollmentToken } from "./enrollment-tokens";
import { memberOf, uniqueSuffix, type TestProject } from "~/test/project-members";
import { expectTRPCError, fieldIssuesOfError } from "~/test/trpc-errors";
import { anonymousCaller, signedInUser, type TestUser } from "~/test/signed-in";

const db = createPrismaClient(inject("databaseUrl"));
const owner = await signedInUser(db, "enroll-owner");

afterAll(() => db.$disconnect());

const dayMs = 24 * 60 * 60 * 1000;
const inDays = (days: number) => new Date(Date.now() + days * dayMs);

/** A project of its own for each test, owned by `by` (the file's owner unless told). */
async function createTestProject(by: TestUser = owner): Promise<TestProject> {
  const suffix = uniqueSuffix();
  const project = await by.caller.project.create({ name: `Agents ${suffix}`, slug: `it-agents-${suffix}` });
  return { id: project.id, slug: project.slug, name: project.name, owner: by };
}

/** Every stored column of a project's tokens: "nothing changed" checks compare these. */
function storedTokens(projectId: string) {
  return db.agentEnrollmentToken.findMany({ where: { projectId }, orderBy: { id: "asc" } });
}

/** Runs a call that must be refused with `code` and checks the project's tokens did not change. */
async function expectRefusedUnchanged(projectId: string, call: () => Promise<unknown>, code: TRPCError["code"]): Promise<TRPCError> {
  const before = await storedTokens(projectId);
  const error = await expectTRPCError(call(), code);
  expect(await storedTokens(projectId)).toEqual(before);
  return error;
}

/** Awaits a promise that must reject with AppError `code`; returns its message. */
async function appErrorMessage(call: Promise<unknown>, code: AppError["code"]): Promise<string> {
  const error = await call.then(
    (value: unknown) => {
      throw new Error(`expected ${code}, but the call succeeded with ${JSON.stringify(value)}`);
    },
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe(code);
  return (error as AppError).message;
}

// ---------------------------------------------------------------------------------------------

describe("enrollmentToken.create", () => {
  it("returns the secret once and stores only its SHA-256, the prefix and who created it", async () => {
    const project = await createTestProject();
    const before = Date.now();

    const created = await owner.caller.enrollmentToken.create({ projectSlug: project.slug, name: "  build farm  " });

    expect(created.secret).toMatch(/^venr_[A-Za-z0-9_-]{43}$/);
    expect(created).toMatchObject({ name: "build farm", prefix: created.secret.slice(0, 11), expiresAt: null });
    const [row, ...others] = await storedTokens(project.id);
    expect(others).toEqual([]);
    expect(row).toMatchObject({
      id: created.id,
      projectId: project.id,
      name: "build farm",
      createdById: owner.id,
      tokenHash: hashSecret(created.secret),
      expiresAt: null,
      revokedAt: null,
      lastUsedAt: null,
    });
    expect(row!.createdAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
    // Nothing in the row can give the secret back.
    expect(JSON.stringify(row)).not.toContain(created.secret.slice(11));

    const listed = await owner.caller.enrollmentToken.list({ projectSlug: project.slug });
    expect(JSON.stringify(listed)).not.toContain(created.secret.slice(11));
    expect(JSON.stringify(listed)).not.toContain(row!.tokenHash);
  });

  it("never expires unless told, or stops at the moment the form chose", async () => {
    const project = await createTestProject();
    const never = await owner.caller.enrollmentToken.create({ projectSlug: project.slug, name: "forever" });
    // The form turns its choice (a preset, or the end of a day where the user is) into a moment.
    const endOfDay = new Date(`${new Date().getUTCFullYear() + 1}-03-15T04:59:59.999Z`);
    const onDay = await owner.caller.enrollmentToken.create({ projectSlug: project.slug, name: "until March", expiresAt: endOfDay });
    expect(never.expiresAt).toBeNull();
    expect(onDay.expiresAt).toEqual(endOfDay);

    const stored = await storedTokens(project.id);
    expect(Object.fromEntries(stored.map((row) => [row.name, row.expiresAt?.toISOString() ?? null]))).toEqual({
      forever: null,
      "until March": endOfDay.toISOString(),
    });
  });

  it("refuses a past expiry on the expiresAt field and a blank name on name, storing nothing", async () => {
    const project = await createTestProject();

    const past = await expectRefusedUnchanged(
      project.id,
      () => owner.caller.enrollmentToken.create({ projectSlug: project.slug, name: "old", expiresAt: new Date(Date.now() - dayMs) }),
      "BAD_REQUEST",
    );
    expect(fieldIssuesOfError(past)).toEqual([{ path: ["expiresAt"], message: "the expiry must be in the future" }]);

    const blank = await expectRefusedUnchanged(
      project.id,
      () => owner.caller.enrollmentToken.create({ projectSlug: project.slug, name: "   " }),
      "BAD_REQUEST",
    );
    expect(fieldIssuesOfError(blank)).toEqual([{ path: ["name"], message: "name is required" }]);
    expect(await storedTokens(project.id)).toEqual([]);
  });

  it("is open to members as well as owners", async () => {
    const project = await createTestProject();
    const member = await memberOf(db, project, "member");

    const created = await member.caller.enrollmentToken.create({ projectSlug: project.slug, name: "member's token", expiresAt: inDays(7) });

    const [listed] = await member.caller.enrollmentToken.list({ projectSlug: project.slug });
    expect(listed).toMatchObject({ id: created.id, createdBy: { name: "member", email: member.email }, status: "active" });
  });
});

describe("enrollmentToken.list", () => {
  it("shows name, prefix, creator, dates and status: active, expired or revoked; revoked last", async () => {
    const project = await createTestProject();
    const revoked = await owner.caller.enrollmentToken.create({ projectSlug: project.slug, name: "old laptop" });
    await owner.caller.enrollmentToken.revoke({ projectSlug: project.slug, tokenId: revoked.id });
    const expired = await owner.caller.enrollmentToken.create({ projectSlug: project.slug, name: "one-off", expiresAt: inDays(1) });
    await db.agentEnrollmentToken.update({ where: { id: expired.id }, data: { expiresAt: new Date(Date.now() - 60_000) } });
    const active = await owner.caller.enrollmentToken.create({ projectSlug: project.slug, name: "ci fleet", expiresAt: inDays(30) });
    await verifyEnrollmentToken(db, active.secret);

    const listed = await owner.caller.enrollmentToken.list({ projectSlug: project.slug });

    expect(listed.map((token) => [token.name, token.status])).toEqual([
      ["ci fleet", "active"],
      ["one-off", "expired"],
      ["old laptop", "revoked"],
    ]);
    expect(listed[0]).toEqual({
      id: active.id,
      name: "ci fleet",
      prefix: active.prefix,
      createdAt: expect.any(Date),
      expiresAt: active.expiresAt,
      lastUsedAt: expect.any(Date),
      revokedAt: null,
      createdBy: { name: "enroll-owner", email: owner.email },
      status: "active",
    });
    expect(listed[2]!.revokedAt).toBeInstanceOf(Date);
  });

  it("keeps the token when its creator's account is deleted, with no creator shown", async () => {
    const project = await createTestProject();
    const member = await memberOf(db, project, "member", "leaver");
    await member.caller.enrollmentToken.create({ projectSlug: project.slug, name: "from a leaver" });
    await db.user.delete({ where: { id: member.id } });

    const [listed] = await owner.caller.enrollmentToken.list({ projectSlug: project.slug });
    expect(listed).toMatchObject({ name: "from a leaver", createdBy: null, status: "active" });
  });
});

describe("enrollmentToken.revoke", () => {
  it("revokes a token of the caller's project once; a second revoke keeps the first date", async () => {
    const project = await createTestProject();
    const token = await owner.caller.enrollmentToken.create({ projectSlug: project.slug, name: "to revoke" });

    const first = await owner.caller.enrollmentToken.revoke({ projectSlug: project.slug, tokenId: token.id });
    const second = await owner.caller.enrollmentToken.revoke({ projectSlug: project.slug, tokenId: token.id });

    expect(second).toEqual(first);
    const [row] = await storedTokens(project.id);
    expect(row!.revokedAt).toEqual(first.revokedAt);
    const [listed] = await owner.caller.enrollmentToken.list({ projectSlug: project.slug });
    expect(listed!.status).toBe("revoked");
  });

  it("is NOT_FOUND for another project's token, even to an owner of the caller's own project, and changes nothing", async () => {
    const victim = await createTestProject();
    const token = await owner.caller.enrollmentToken.create({ projectSlug: victim.slug, name: "victim's token" });
    const outsider = await signedInUser(db, "outsider");
    const outsidersProject = await createTestProject(outsider);

    // The id guessed (or leaked) from the other project, sent with the outsider's own slug.
    const guessed = await expectRefusedUnchanged(
      victim.id,
      () => outsider.caller.enrollmentToken.revoke({ projectSlug: outsidersProject.slug, tokenId: token.id }),
      "NOT_FOUND",
    );
    expect(guessed.message).toBe("No enrollment token with that id in this project");
    // The other project's slug itself answers like a project that does not exist.
    const foreignSlug = await expectRefusedUnchanged(
      victim.id,
      () => outsider.caller.enrollmentToken.revoke({ projectSlug: victim.slug, tokenId: token.id }),
      "NOT_FOUND",
    );
    expect(foreignSlug.message).toBe(`No project "${victim.slug}"`);
    await expectTRPCError(outsider.caller.enrollmentToken.list({ projectSlug: victim.slug }), "NOT_FOUND");
    await expectRefusedUnchanged(victim.id, () => outsider.caller.enrollmentToken.create({ projectSlug: victim.slug, name: "sneaky" }), "NOT_FOUND");
    await expectRefusedUnchanged(victim.id, () => owner.caller.enrollmentToken.revoke({ projectSlug: victim.slug, tokenId: "no-such-token" }), "NOT_FOUND");

    expect(await verifyEnrollmentToken(db, token.secret)).toEqual({ projectId: victim.id, tokenId: token.id });
  });
});

describe("who may manage enrollment tokens", () => {
  it("viewers may not list, create or revoke: FORBIDDEN, nothing changed", async () => {
    const project = await createTestProject();
    const token = await owner.caller.enrollmentToken.create({ projectSlug: project.slug, name: "fleet" });
    const viewer = await memberOf(db, project, "viewer");

    const listed = await expectTRPCError(viewer.caller.enrollmentToken.list({ projectSlug: project.slug }), "FORBIDDEN");
    expect(listed.message).toContain("this needs the member role");
    await expectRefusedUnchanged(project.id, () => viewer.caller.enrollmentToken.create({ projectSlug: project.slug, name: "viewer's" }), "FORBIDDEN");
    await expectRefusedUnchanged(project.id, () => viewer.caller.enrollmentToken.revoke({ projectSlug: project.slug, tokenId: token.id }), "FORBIDDEN");
  });

  it("signed-out callers are UNAUTHORIZED", async () => {
    const project = await createTestProject();
    const token = await owner.caller.enrollmentToken.create({ projectSlug: project.slug, name: "fleet" });
    const anonymous = anonymousCaller(db);

    await expectTRPCError(anonymous.enrollmentToken.list({ projectSlug: project.slug }), "UNAUTHORIZED");
    await expectRefusedUnchanged(project.id, () => anonymous.enrollmentToken.create({ projectSlug: project.slug, name: "x" }), "UNAUTHORIZED");
    await expectRefusedUnchanged(project.id, () => anonymous.enrollmentToken.revoke({ projectSlug: project.slug, tokenId: token.id }), "UNAUTHORIZED");
  });
});

describe("verifyEnrollmentToken", () => {
  it("accepts an active token, names its project and records the use", async () => {
    const project = await createTestProject();
    const token = await owner.caller.enrollmentToken.create({ projectSlug: project.slug, name: "fleet", expiresAt: inDays(7) });
    const before = Date.now();

    // Agents may pass the value with the newline a config file or `echo` adds.
    expect(await verifyEnrollmentToken(db, `${token.secret}\n`)).toEqual({ projectId: project.id, tokenId: token.id });

    const [row] = await storedTokens(project.id);
    expect(row!.lastUsedAt!.getTime()).toBeGreaterThanOrEqual(before - 1000);
  });

  it("says whether a refused token is unknown, revoked or expired, and records no use", async () => {
    const project = await createTestProject();
    const revoked = await owner.caller.enrollmentToken.create({ projectSlug: project.slug, name: "stolen laptop" });
    await owner.caller.enrollmentToken.revoke({ projectSlug: project.slug, tokenId: revoked.id });
    const expired = await owner.caller.enrollmentToken.create({ projectSlug: project.slug, name: "last week", expiresAt: inDays(1) });
    await db.agentEnrollmentToken.update({ where: { id: expired.id }, data: { expiresAt: new Date("2026-01-02T03:04:05Z") } });
    const apiKey = await createApiKey(db, project.slug, "ci");
    const before = await storedTokens(project.id);

    expect(await appErrorMessage(verifyEnrollmentToken(db, `venr_${crypto.randomBytes(32).toString("base64url")}`), "UNAUTHORIZED")).toBe(
      "Unknown enrollment token",
    );
    expect(await appErrorMessage(verifyEnrollmentToken(db, ""), "UNAUTHORIZED")).toBe("Unknown enrollment token");
    expect(await appErrorMessage(verifyEnrollmentToken(db, apiKey.secret), "UNAUTHORIZED")).toContain("that is a project API key");
    expect(await appErrorMessage(verifyEnrollmentToken(db, revoked.secret), "UNAUTHORIZED")).toMatch(
      /^Enrollment token "stolen laptop" was revoked on \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/,
    );
    expect(await appErrorMessage(verifyEnrollmentToken(db, expired.secret), "UNAUTHORIZED")).toBe(
      'Enrollment token "last week" expired on 2026-01-02 03:04 UTC',
    );
    // A hash presented as if it were the secret is just unknown.
    expect(await appErrorMessage(verifyEnrollmentToken(db, before[0]!.tokenHash), "UNAUTHORIZED")).toBe("Unknown enrollment token");

    expect(await storedTokens(project.id)).toEqual(before);
  });

  it("works inside a transaction, so enrollment can create the agent in the same one", async () => {
    const project = await createTestProject();
    const token = await owner.caller.enrollmentToken.create({ projectSlug: project.slug, name: "fleet" });

    const verified = await db.$transaction((tx) => verifyEnrollmentToken(tx, token.secret));

    expect(verified).toEqual({ projectId: project.id, tokenId: token.id });
  });
});
