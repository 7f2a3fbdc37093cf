// Project A's people and keys cannot read or change anything of project B by guessing its ids
// or slugs — through tRPC, the REST API or the download routes — and the session itself behaves:
// cross-site writes are refused, sign-out ends the session, passwords are stored as scrypt
// hashes, and password guessing is rate-limited.
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { GET as comparisonRoute } from "~/app/api/v1/experiments/[slugOrId]/comparison/route";
import { GET as runsCsvRoute } from "~/app/p/[project]/e/[experiment]/export/runs.csv/route";
import { POST as authRoute } from "~/app/api/auth/[...all]/route";
import { POST as trpcRoute } from "~/app/api/trpc/[trpc]/route";
import { auth } from "~/server/auth/auth";
import { ACCOUNT_LOCKOUT } from "~/server/auth/account-lockout";
import { SIGN_IN_RATE_LIMIT } from "~/server/auth/auth-settings";
import { createPrismaClient } from "~/server/db/client";
import { createApiKey } from "~/server/projects/api-keys";
import { createProject } from "~/server/projects/projects";
import { expectRefused, uploadStored } from "~/test/rest-assertions";
import { anonymousCaller, signedInUser, type TestUser } from "~/test/signed-in";

const db = createPrismaClient(inject("databaseUrl"));
afterAll(() => db.$disconnect());

const suffix = () => crypto.randomBytes(4).toString("hex");
const upload = (experiment: string, create = true) => ({
  experiment,
  create,
  runs: [{ variant: "baseline", metrics: [{ key: "latency", unit: "ms", direction: "lower_is_better", samples: [1, 2, 3] }] }],
});

interface Side {
  user: TestUser;
  slug: string;
  key: string;
  keyId: string;
  experimentId: string;
}

async function side(label: string, experimentSlug: string): Promise<Side> {
  const user = await signedInUser(db, label);
  const slug = `${label}-${suffix()}`;
  await createProject(db, { name: slug, slug, description: "" }, user.id);
  const key = await createApiKey(db, slug, `${label} key`);
  await uploadStored(key.secret, upload(experimentSlug));
  const experiment = await db.experiment.findFirstOrThrow({ where: { project: { slug }, slug: experimentSlug } });
  return { user, slug, key: key.secret, keyId: key.id, experimentId: experiment.id };
}

let a: Side;
let b: Side;
beforeAll(async () => {
  a = await side("alpha", "a-only");
  b = await side("beta", "b-secret");
});

describe("tRPC: a member of A guessing B's slugs and ids", () => {
  it("lists only A", async () => {
    expect((await a.user.caller.project.list()).map((p) => p.slug)).toEqual([a.slug]);
  });

  it("cannot read B's experiment under A's name", async () => {
    await expect(a.user.caller.experiment.get({ projectSlug: a.slug, experimentSlug: "b-secret" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(a.user.caller.experiment.results({ projectSlug: a.slug, experimentSlug: "b-secret" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(a.user.caller.report.runsCsv({ projectSlug: a.slug, experimentSlug: "b-secret" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(
      a.user.caller.report.crossCompare({ projectSlug: a.slug, before: { experimentSlug: "b-secret" }, after: { experimentSlug: "a-only" } }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("cannot delete B's experiment or revoke B's key, and nothing of B changes", async () => {
    await expect(a.user.caller.experiment.delete({ projectSlug: a.slug, experimentSlug: "b-secret" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(a.user.caller.apiKey.revoke({ projectSlug: a.slug, keyId: b.keyId })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await db.experiment.findUnique({ where: { id: b.experimentId } })).not.toBeNull();
    expect((await db.apiKey.findUniqueOrThrow({ where: { id: b.keyId } })).revokedAt).toBeNull();
  });
});

describe("REST: A's API key against B", () => {
  const comparison = (slugOrId: string, key: string) =>
    comparisonRoute(new Request(`http://test.local/api/v1/experiments/${slugOrId}/comparison`, { headers: { authorization: `Bearer ${key}` } }), {
      params: Promise.resolve({ slugOrId }),
    });

  it("cannot read B's comparison by its id or slug", async () => {
    expect((await comparison(b.experimentId, b.key)).status).toBe(200);
    expect((await comparison(b.experimentId, a.key)).status).toBe(404);
    expect((await comparison("b-secret", a.key)).status).toBe(404);
  });

  it("cannot upload into B's experiment: without create it is unknown, with create it lands in A", async () => {
    const { POST } = await import("~/app/api/v1/results/route");
    const post = (body: object) =>
      POST(
        new Request("http://test.local/api/v1/results", {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${a.key}` },
          body: JSON.stringify(body),
        }),
      );
    await expectRefused(db, () => post(upload("b-secret", false)), 404, "NOT_FOUND");
    const runsOfB = await db.run.count({ where: { experimentId: b.experimentId } });
    await uploadStored(a.key, upload("b-secret"));
    expect(await db.run.count({ where: { experimentId: b.experimentId } })).toBe(runsOfB);
    expect(await db.experiment.count({ where: { slug: "b-secret", project: { slug: a.slug } } })).toBe(1);
  });
});

describe("download routes", () => {
  const download = (project: string, headers: Headers) =>
    runsCsvRoute(new Request(`http://test.local/p/${project}/e/b-secret/export/runs.csv`, { headers }), {
      params: Promise.resolve({ project, experiment: "b-secret" }),
    });

  it("answer 401 signed out, 404 to a stranger, the file to a member", async () => {
    expect((await download(b.slug, new Headers())).status).toBe(401);
    expect((await download(b.slug, a.user.headers())).status).toBe(404);
    expect((await download(b.slug, b.user.headers())).status).toBe(200);
  });
});

describe("sessions", () => {
  const createProjectOverHttp = (user: TestUser, fetchSite: string, slug: string) =>
    trpcRoute(
      new Request("http://localhost:3000/api/trpc/project.create", {
        method: "POST",
        headers: { "content-type": "application/json", cookie: user.cookie, "sec-fetch-site": fetchSite },
        body: JSON.stringify({ json: { name: slug, slug } }),
      }),
    );

  it("refuses a tRPC write another site's page sent with the user's cookie, and writes nothing", async () => {
    const slug = `csrf-${suffix()}`;
    expect((await createProjectOverHttp(a.user, "cross-site", slug)).status).toBe(403);
    expect(await db.project.count({ where: { slug } })).toBe(0);
    expect((await createProjectOverHttp(a.user, "same-origin", slug)).status).toBe(200);
    expect(await db.project.count({ where: { slug } })).toBe(1);
  });

  it("stores the password as a salted scrypt hash, never as given", async () => {
    const account = await db.account.findFirstOrThrow({ where: { userId: a.user.id, providerId: "credential" } });
    expect(account.password).not.toContain(a.user.password);
    expect(account.password).toMatch(/^[0-9a-f]{32}:[0-9a-f]{128}$/);
  });

  it("signing out ends the session on the server, not only in the browser", async () => {
    const user = await signedInUser(db, "leaver");
    expect(await user.caller.project.list()).toEqual([]);
    await auth.api.signOut({ headers: user.headers() });
    await expect(user.caller.project.list()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    expect(await db.session.count({ where: { userId: user.id } })).toBe(0);
  });

  it("rate-limits password guessing from one address", async () => {
    const ip = `203.0.113.${crypto.randomInt(1, 254)}`;
    const guess = () =>
      authRoute(
        new Request("http://localhost:3000/api/auth/sign-in/email", {
          method: "POST",
          headers: { "content-type": "application/json", "x-forwarded-for": ip },
          body: JSON.stringify({ email: a.user.email, password: "wrong password" }),
        }),
      );
    const statuses: number[] = [];
    for (let i = 0; i <= SIGN_IN_RATE_LIMIT.max; i++) statuses.push((await guess()).status);
    expect(statuses.slice(0, SIGN_IN_RATE_LIMIT.max)).toEqual(Array(SIGN_IN_RATE_LIMIT.max).fill(401));
    expect(statuses.at(-1)).toBe(429);
    // Even the right password waits out the window now.
    const right = await authRoute(
      new Request("http://localhost:3000/api/auth/sign-in/email", {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-for": ip },
        body: JSON.stringify({ email: a.user.email, password: a.user.password }),
      }),
    );
    expect(right.status).toBe(429);
  });

  it("locks one account after repeated failures, however many addresses the guesses come from", async () => {
    const victim = await signedInUser(db, "victim");
    const attempt = (password: string, i: number) =>
      authRoute(
        new Request("http://localhost:3000/api/auth/sign-in/email", {
          method: "POST",
          headers: { "content-type": "application/json", "x-forwarded-for": `198.51.100.${(i % 250) + 1}` },
          body: JSON.stringify({ email: victim.email.toUpperCase(), password }),
        }),
      );
    const statuses: number[] = [];
    for (let i = 0; i < ACCOUNT_LOCKOUT.failures; i++) statuses.push((await attempt(`guess ${i}`, i)).status);
    expect(statuses).toEqual(Array(ACCOUNT_LOCKOUT.failures).fill(401));
    // Locked: even the right password, from yet another address, is refused and says why.
    const locked = await attempt(victim.password, 200);
    expect(locked.status).toBe(429);
    expect(((await locked.json()) as { message: string }).message).toMatch(/Too many failed sign-ins for this account\. Try again in 15 minutes/);
    // Once the lock has passed, the right password works and the count starts again.
    await db.signInFailure.update({
      where: { email: victim.email },
      data: { lockedUntil: new Date(Date.now() - 1000), firstAt: new Date(Date.now() - 20 * 60_000) },
    });
    expect((await attempt(victim.password, 201)).status).toBe(200);
    expect(await db.signInFailure.findUnique({ where: { email: victim.email } })).toBeNull();
  });

  it("a signed-out caller reaches nothing private", async () => {
    await expect(anonymousCaller(db).project.list()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });
});
