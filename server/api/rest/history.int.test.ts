// GET /api/v1/experiments/{slugOrId}/history through the exported Next.js route handler, on a real
// PostgreSQL with runs uploaded through POST /api/v1/results: authentication like every /api/v1
// route, bad parameters refused naming the field, the series with its change point, windows,
// thinning that keeps extremes and both sides of a change point, and the tRPC procedure agreeing.
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET } from "~/app/api/v1/experiments/[slugOrId]/history/route";
import { db } from "~/server/db/client";
import { ZHistory, type THistory } from "~/server/schemas/history";
import { createApiKey } from "~/server/projects/api-keys";
import { createProject } from "~/server/projects/projects";
import { drainBackgroundWork } from "~/server/background/worker";
import { mulberry32, standardNormal } from "~/server/stats/prng";
import { signedInUser } from "~/test/signed-in";
import { fieldPaths, uploadStored, type ErrorBody } from "~/test/rest-assertions";

afterAll(async () => {
  await drainBackgroundWork(db);
  await db.$disconnect();
});

const owner = await signedInUser(db, "owner");
const COMMITS = 120;
const t0 = Date.UTC(2026, 2, 1);
const timeOf = (i: number) => new Date(t0 + i * 86_400_000).toISOString();
let slug = "";
let key = "";

beforeAll(async () => {
  slug = `hist-${crypto.randomBytes(4).toString("hex")}`;
  await createProject(db, { name: slug, slug, description: "" }, owner.id);
  key = (await createApiKey(db, slug, "history")).secret;
  const random = mulberry32(11);
  const runs = [];
  for (let i = 0; i < COMMITS; i++) {
    for (let r = 0; r < 2; r++) {
      // +12% from commit 60; commit 30 has one outlier commit median (a spike thinning must keep).
      const level = (i < 60 ? 100 : 112) * (i === 30 ? 1.5 : 1);
      runs.push({
        variant: "plain",
        gitCommit: `c${String(i).padStart(4, "0")}`,
        gitBranch: i % 10 === 9 ? "release" : "main",
        gitCommitMessage: `change ${i}`,
        gitCommitTime: timeOf(i),
        metrics: [{ key: "latency", unit: "ms", direction: "lower_is_better", summary: { n: 10, mean: level * (1 + 0.01 * standardNormal(random)) } }],
      });
    }
  }
  await uploadStored(key, { experiment: "svc", create: true, runs });
  await drainBackgroundWork(db);
  await db.project.update({ where: { slug }, data: { repositoryUrl: "https://github.com/acme/svc" } });
});

async function getHistory<T = THistory>(slugOrId: string, params: Record<string, string> = {}, auth: string | null = key) {
  const url = new URL(`http://test.local/api/v1/experiments/${encodeURIComponent(slugOrId)}/history`);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  const headers: Record<string, string> = auth === null ? {} : { authorization: `Bearer ${auth}` };
  const response = await GET(new Request(url, { headers }), { params: Promise.resolve({ slugOrId }) });
  return { status: response.status, body: (await response.json()) as T };
}

describe("GET /api/v1/experiments/{slugOrId}/history", () => {
  it("answers 401 without a key or with a wrong one, and 404 for another project's experiment", async () => {
    expect((await getHistory("svc", {}, null)).status).toBe(401);
    expect((await getHistory("svc", {}, "vs_not-a-key")).status).toBe(401);
    const other = `other-${crypto.randomBytes(4).toString("hex")}`;
    await createProject(db, { name: other, slug: other, description: "" }, owner.id);
    const otherKey = (await createApiKey(db, other, "other")).secret;
    const { status, body } = await getHistory<ErrorBody>("svc", {}, otherKey);
    expect([status, body.error.code]).toEqual([404, "NOT_FOUND"]);
  });

  it("refuses bad parameters naming the field", async () => {
    for (const [params, status, field] of [
      [{ maxPoints: "many" }, 400, "maxPoints"],
      [{ maxPoints: "10" }, 400, "maxPoints"],
      [{ from: "yesterday" }, 400, "from"],
      [{ to: "2026-13-01" }, 400, "to"],
      [{ from: timeOf(10), to: timeOf(5) }, 400, "from"],
      [{ metric: "" }, 400, "metric"],
      [{ metric: "throughput" }, 404, "metric"],
      [{ variant: "gzip" }, 404, "variant"],
    ] as const) {
      const response = await getHistory<ErrorBody>("svc", params);
      expect({ params, status: response.status, fields: fieldPaths(response.body) }).toEqual({ params, status, fields: [field] });
    }
  });

  it("gives every commit with its runs, the change point with its range, and the repository URL", async () => {
    const { status, body } = await getHistory("svc", { metric: "latency", variant: "plain" });
    expect(status).toBe(200);
    expect(ZHistory.parse(body)).toBeTruthy();
    expect(body).toMatchObject({ variant: "plain", branch: null, commits: COMMITS, downsampled: false, repositoryUrl: "https://github.com/acme/svc" });
    expect(body.points).toHaveLength(COMMITS);
    expect(body.points[0]).toMatchObject({ commit: "c0000", message: "change 0", time: timeOf(0) });
    expect(body.points[0]?.runValues).toHaveLength(2);
    expect(body.branches).toEqual([
      { branch: "main", commits: 108 },
      { branch: "release", commits: 12 },
    ]);
    const [cp] = body.changePoints;
    expect(body.changePoints).toHaveLength(1);
    expect(Math.abs(Number(cp?.commit.slice(1)) - 60)).toBeLessThanOrEqual(2);
    expect(cp).toMatchObject({ verdict: "regression", status: "open" });
    expect(cp?.previousCommit).toBe(`c${String(Number(cp?.commit.slice(1)) - 1).padStart(4, "0")}`);
    expect(cp?.time).toBe(body.points.find((p) => p.commit === cp?.commit)?.time);
  });

  it("filters by branch and window", async () => {
    const release = await getHistory("svc", { branch: "release" });
    expect(release.body.points.map((p) => p.commit)).toEqual(Array.from({ length: 12 }, (_, k) => `c${String(k * 10 + 9).padStart(4, "0")}`));
    const window = await getHistory("svc", { from: timeOf(20), to: timeOf(29) });
    expect(window.body.points.map((p) => p.commit)).toEqual(Array.from({ length: 10 }, (_, k) => `c${String(20 + k).padStart(4, "0")}`));
    expect(window.body.window).toEqual({ from: timeOf(20), to: timeOf(29), commits: 10 });
    expect(window.body.commits).toBe(COMMITS);
  });

  it("thins long windows keeping the spike and both commits around the change point", async () => {
    const { body } = await getHistory("svc", { maxPoints: "50" });
    expect(body.downsampled).toBe(true);
    expect(body.points.length).toBeLessThanOrEqual(50 + 2);
    const commits = body.points.map((p) => p.commit);
    expect(commits).toContain("c0030");
    const cp = body.changePoints[0];
    expect(commits).toContain(cp?.commit);
    expect(commits).toContain(cp?.previousCommit);
    expect(commits).toEqual([...commits].sort());
  });

  it("agrees with the tRPC procedure the page uses", async () => {
    const trpc = await owner.caller.history.get({ projectSlug: slug, experimentSlug: "svc" });
    const rest = await getHistory("svc");
    expect({ ...trpc, role: undefined }).toEqual({ ...rest.body, role: undefined });
  });

  it("shows a new run at once, though the series was read (and cached) before", async () => {
    const before = await getHistory("svc");
    expect(before.body.commits).toBe(COMMITS);
    await uploadStored(key, {
      experiment: "svc",
      runs: [
        {
          variant: "plain",
          gitCommit: "late",
          gitBranch: "main",
          gitCommitTime: timeOf(COMMITS),
          metrics: [{ key: "latency", summary: { n: 10, mean: 111 } }],
        },
      ],
    });
    const after = await getHistory("svc");
    expect(after.body.commits).toBe(COMMITS + 1);
    expect(after.body.points.at(-1)).toMatchObject({ commit: "late", runValues: [111] });
  });
});
