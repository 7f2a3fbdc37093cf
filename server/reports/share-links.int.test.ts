// Share links end to end on a real, migrated PostgreSQL, through the tRPC procedures a browser
// calls (roles and project scoping included) and the `view` the public page calls: live and
// snapshot content, revocation, expiry, view counting, and the token's storage.
import crypto from "node:crypto";
import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createPrismaClient } from "~/server/db/client";
import { ZSharedComparison } from "~/server/schemas/share-link";
import { createProject } from "~/server/projects/projects";
import { createKafkaProject, KAFKA_SLUG, KAFKA_VARIANTS, kafkaRuns, upload } from "~/test/fixtures/kafka-serializers";
import { addMember, anonymousCaller, signedInUser, type TestUser } from "~/test/signed-in";

const db = createPrismaClient(inject("databaseUrl"));
afterAll(() => db.$disconnect());

const anonymous = anonymousCaller(db);
const view = (token: string, countView = true) => anonymous.share.view({ token, countView });

/** The TRPCError code a call fails with (and the field paths it names). */
async function refusal(call: Promise<unknown>): Promise<{ code: string; fields: string[] }> {
  try {
    await call;
  } catch (error) {
    if (!(error instanceof TRPCError)) throw error;
    const cause = error.cause as { fieldIssues?: { path: (string | number)[] }[]; issues?: { path: PropertyKey[] }[] } | undefined;
    const paths = cause?.fieldIssues?.map((i) => i.path.join(".")) ?? cause?.issues?.map((i) => i.path.join(".")) ?? [];
    return { code: error.code, fields: paths };
  }
  throw new Error("the call succeeded");
}

const inADay = () => new Date(Date.now() + 24 * 60 * 60 * 1000);

let owner: TestUser;
let member: TestUser;
let viewer: TestUser;
let outsider: TestUser;
let project: { projectId: string; projectSlug: string };
let outsiderSlug: string;

beforeAll(async () => {
  [owner, member, viewer, outsider] = await Promise.all([
    signedInUser(db, "owner"),
    signedInUser(db, "member"),
    signedInUser(db, "viewer"),
    signedInUser(db, "outsider"),
  ]);
  project = await createKafkaProject(db, owner.id);
  await addMember(db, project.projectId, member.id, "member");
  await addMember(db, project.projectId, viewer.id, "viewer");
  // The outsider is the owner of a project of their own: signed in, a member somewhere, just not here.
  outsiderSlug = `other-${crypto.randomBytes(4).toString("hex")}`;
  await createProject(db, { name: outsiderSlug, slug: outsiderSlug, description: "" }, outsider.id);
});

const ref = () => ({ projectSlug: project.projectSlug, experimentSlug: KAFKA_SLUG });

describe("creating and viewing", () => {
  it("a live and a snapshot link show the experiment page's comparison; live follows new uploads, the snapshot does not", async () => {
    const live = await member.caller.share.create({ ...ref(), mode: "live" });
    const snapshot = await member.caller.share.create({ ...ref(), mode: "snapshot" });
    expect(live.path).toBe(`/s/${live.token}`);
    expect(snapshot.mode).toBe("snapshot");

    const page = await owner.caller.experiment.results(ref());
    const before = { live: ZSharedComparison.parse(await view(live.token)), snapshot: ZSharedComparison.parse(await view(snapshot.token)) };
    for (const shared of [before.live, before.snapshot]) {
      expect(shared.comparison).toEqual(page.comparison);
      expect(shared.experiment.title).toBe("Kafka producer serializers");
      expect(shared.experiment.hypothesis).toMatch(/kotlinx/);
      expect(shared.experiment.variants.map((v) => [v.name, v.runCount, v.isBaseline])).toEqual(KAFKA_VARIANTS.map((name, i) => [name, 5, i === 0]));
      expect(shared.headlines[0]).toEqual({ text: "KOTLINX_JSON −4.37% send_time_ms vs SPRING_JSON (better, p 0.032)", verdict: "better" });
    }
    expect(before.live).toMatchObject({ mode: "live", snapshotTakenAt: null });
    expect(before.snapshot.mode).toBe("snapshot");
    expect(before.snapshot.snapshotTakenAt).toBeInstanceOf(Date);

    // A sixth repetition of every variant after the links were made.
    await upload(
      db,
      { id: project.projectId, slug: project.projectSlug },
      {
        experiment: KAFKA_SLUG,
        runs: kafkaRuns()
          .slice(0, 3)
          .map((run) => ({ ...run, repetition: 5 })),
      },
    );
    const after = { live: ZSharedComparison.parse(await view(live.token)), snapshot: ZSharedComparison.parse(await view(snapshot.token)) };
    expect(after.live.comparison.variants.map((v) => v.runs)).toEqual([6, 6, 6]);
    expect(after.live.comparison).toEqual((await owner.caller.experiment.results(ref())).comparison);
    expect(after.snapshot).toEqual(before.snapshot);
  });

  it("a link with its own baseline compares against it; an unknown baseline is a field error and makes no link", async () => {
    const link = await member.caller.share.create({ ...ref(), mode: "live", baseline: "KOTLINX_JSON" });
    const shared = ZSharedComparison.parse(await view(link.token));
    expect(shared.comparison.baseline).toBe("KOTLINX_JSON");
    expect(shared.charts?.baseline).toBe("KOTLINX_JSON");
    expect(shared.experiment.variants.find((v) => v.isBaseline)?.name).toBe("KOTLINX_JSON");

    const count = await db.shareLink.count();
    expect(await refusal(member.caller.share.create({ ...ref(), mode: "snapshot", baseline: "PROTOBUF" }))).toEqual({
      code: "UNPROCESSABLE_CONTENT",
      fields: ["baseline"],
    });
    expect(await db.shareLink.count()).toBe(count);
  });

  it("the token carries 256 random bits and only its SHA-256 is stored", async () => {
    const link = await member.caller.share.create({ ...ref(), mode: "snapshot" });
    const secretPart = link.token.slice("vsh_".length);
    // base64url: 6 bits a character; 43 characters are 32 random bytes.
    expect(secretPart).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(secretPart.length * 6).toBeGreaterThanOrEqual(128);
    expect(link.prefix).toBe(link.token.slice(0, link.prefix.length));

    const [row] = await db.$queryRaw<Record<string, unknown>[]>`SELECT * FROM "ShareLink" WHERE id = ${link.id}`;
    const stored = JSON.stringify(row);
    expect(row?.tokenHash).toBe(crypto.createHash("sha256").update(link.token).digest("hex"));
    expect(stored).not.toContain(link.token);
    expect(stored).not.toContain(link.token.slice(link.prefix.length));
    // The list never hands it out again either.
    const listed = JSON.stringify(await member.caller.share.list(ref()));
    expect(listed).not.toContain(link.token.slice(link.prefix.length));
  });

  it("unknown and malformed tokens show nothing", async () => {
    expect(await view(`vsh_${crypto.randomBytes(32).toString("base64url")}`)).toBeNull();
    expect(await view("not-a-token")).toBeNull();
    expect(await view("")).toBeNull();
  });
});

describe("views, revocation and expiry", () => {
  it("counts page views, not preview images", async () => {
    const link = await member.caller.share.create({ ...ref(), mode: "snapshot" });
    await view(link.token);
    await view(link.token);
    await view(link.token, false);
    const row = await db.shareLink.findUniqueOrThrow({ where: { id: link.id } });
    expect(row.viewCount).toBe(2);
    expect(row.lastViewedAt).toBeInstanceOf(Date);
    const listed = (await member.caller.share.list(ref())).find((l) => l.id === link.id);
    expect(listed).toMatchObject({ viewCount: 2, status: "active", mode: "snapshot", createdBy: { name: "member", email: member.email } });
  });

  it("a revoked link shows nothing, is listed as revoked and cannot be revoked or re-dated again", async () => {
    const link = await member.caller.share.create({ ...ref(), mode: "live" });
    expect(await view(link.token)).not.toBeNull();
    await member.caller.share.revoke({ projectSlug: project.projectSlug, linkId: link.id });
    expect(await view(link.token)).toBeNull();
    expect((await owner.caller.share.list(ref())).find((l) => l.id === link.id)?.status).toBe("revoked");
    expect((await refusal(member.caller.share.revoke({ projectSlug: project.projectSlug, linkId: link.id }))).code).toBe("NOT_FOUND");
    expect((await refusal(member.caller.share.setExpiry({ projectSlug: project.projectSlug, linkId: link.id, expiresAt: null }))).code).toBe("NOT_FOUND");
    expect(await view(link.token)).toBeNull();
  });

  it("an expired link shows nothing until its expiry is moved; setExpiry sets and clears it", async () => {
    const expiresAt = inADay();
    const link = await member.caller.share.create({ ...ref(), mode: "snapshot", expiresAt });
    expect(link.expiresAt).toEqual(expiresAt);
    expect(await view(link.token)).not.toBeNull();
    // The day passes (the clock is the database row's, not a timer).
    await db.shareLink.update({ where: { id: link.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await view(link.token)).toBeNull();
    expect((await member.caller.share.list(ref())).find((l) => l.id === link.id)?.status).toBe("expired");

    const later = new Date(Date.now() + 7 * 24 * 60 * 60 * 1000);
    await member.caller.share.setExpiry({ projectSlug: project.projectSlug, linkId: link.id, expiresAt: later });
    expect((await db.shareLink.findUniqueOrThrow({ where: { id: link.id } })).expiresAt).toEqual(later);
    expect(await view(link.token)).not.toBeNull();
    await member.caller.share.setExpiry({ projectSlug: project.projectSlug, linkId: link.id, expiresAt: null });
    expect((await member.caller.share.list(ref())).find((l) => l.id === link.id)).toMatchObject({ expiresAt: null, status: "active" });
  });

  it("a past expiry is a field error, on create and on setExpiry, and changes nothing", async () => {
    const past = new Date(Date.now() - 60_000);
    const count = await db.shareLink.count();
    expect(await refusal(member.caller.share.create({ ...ref(), mode: "live", expiresAt: past }))).toEqual({ code: "BAD_REQUEST", fields: ["expiresAt"] });
    expect(await db.shareLink.count()).toBe(count);

    const link = await member.caller.share.create({ ...ref(), mode: "live" });
    expect(await refusal(member.caller.share.setExpiry({ projectSlug: project.projectSlug, linkId: link.id, expiresAt: past }))).toEqual({
      code: "BAD_REQUEST",
      fields: ["expiresAt"],
    });
    expect((await db.shareLink.findUniqueOrThrow({ where: { id: link.id } })).expiresAt).toBeNull();
  });

  it("deleting the experiment takes its links with it", async () => {
    const other = await createKafkaProject(db, owner.id);
    const link = await owner.caller.share.create({ projectSlug: other.projectSlug, experimentSlug: KAFKA_SLUG, mode: "live" });
    await owner.caller.experiment.delete({ projectSlug: other.projectSlug, experimentSlug: KAFKA_SLUG });
    expect(await view(link.token)).toBeNull();
    expect(await db.shareLink.count({ where: { id: link.id } })).toBe(0);
  });
});

describe("who may manage links", () => {
  it("a viewer can neither create, list, re-date nor revoke (FORBIDDEN), and nothing changes", async () => {
    const link = await member.caller.share.create({ ...ref(), mode: "live" });
    const before = await db.shareLink.findMany({ where: { projectId: project.projectId }, orderBy: { id: "asc" } });
    expect((await refusal(viewer.caller.share.create({ ...ref(), mode: "snapshot" }))).code).toBe("FORBIDDEN");
    expect((await refusal(viewer.caller.share.list(ref()))).code).toBe("FORBIDDEN");
    expect((await refusal(viewer.caller.share.revoke({ projectSlug: project.projectSlug, linkId: link.id }))).code).toBe("FORBIDDEN");
    expect((await refusal(viewer.caller.share.setExpiry({ projectSlug: project.projectSlug, linkId: link.id, expiresAt: inADay() }))).code).toBe("FORBIDDEN");
    expect(await db.shareLink.findMany({ where: { projectId: project.projectId }, orderBy: { id: "asc" } })).toEqual(before);
  });

  it("a member of another project gets NOT_FOUND for a guessed link id or experiment slug, and nothing changes", async () => {
    const link = await member.caller.share.create({ ...ref(), mode: "live", expiresAt: inADay() });
    const before = await db.shareLink.findMany({ where: { projectId: project.projectId }, orderBy: { id: "asc" } });
    const own = { projectSlug: outsiderSlug };
    const theirs = { projectSlug: project.projectSlug };
    const attempts = [
      () => outsider.caller.share.list({ ...own, experimentSlug: KAFKA_SLUG }),
      () => outsider.caller.share.list(theirs),
      () => outsider.caller.share.list({ ...theirs, experimentSlug: KAFKA_SLUG }),
      () => outsider.caller.share.create({ ...own, experimentSlug: KAFKA_SLUG, mode: "live" }),
      () => outsider.caller.share.create({ ...theirs, experimentSlug: KAFKA_SLUG, mode: "live" }),
      () => outsider.caller.share.revoke({ ...own, linkId: link.id }),
      () => outsider.caller.share.revoke({ ...theirs, linkId: link.id }),
      () => outsider.caller.share.setExpiry({ ...own, linkId: link.id, expiresAt: null }),
      () => outsider.caller.share.setExpiry({ ...theirs, linkId: link.id, expiresAt: null }),
    ];
    for (const attempt of attempts) expect((await refusal(attempt())).code).toBe("NOT_FOUND");
    // Their own project's list does not include it either.
    expect(await outsider.caller.share.list(own)).toEqual([]);
    expect(await db.shareLink.findMany({ where: { projectId: project.projectId }, orderBy: { id: "asc" } })).toEqual(before);
  });

  it("the project-wide list names each link's experiment", async () => {
    const listed = await member.caller.share.list({ projectSlug: project.projectSlug });
    expect(listed.length).toBeGreaterThan(0);
    expect(new Set(listed.map((l) => l.experiment.slug))).toEqual(new Set([KAFKA_SLUG]));
    expect(listed.every((l) => ["active", "expired", "revoked"].includes(l.status))).toBe(true);
  });
});
