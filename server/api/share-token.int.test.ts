// A share token opens its one share page and nothing else: not the tRPC procedures the app uses
// (as a bearer header or as a session cookie, in-process and through the HTTP route), not the
// REST API; and what the page receives holds no run ids, no raw samples, no run details and
// nothing of another experiment. Real PostgreSQL, real sessions, the route handlers in-process.
import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getComparisonRoute } from "~/app/api/v1/experiments/[slugOrId]/comparison/route";
import { POST as postResultsRoute } from "~/app/api/v1/results/route";
import { GET as trpcGet } from "~/app/api/trpc/[trpc]/route";
import { createCaller } from "~/server/api/root";
import { createTRPCContext } from "~/server/api/trpc";
import { db } from "~/server/db/client";
import { lognormalSamples } from "~/server/stats/prng";
import { createKafkaProject, KAFKA_SLUG, upload } from "~/test/fixtures/kafka-serializers";
import { expectRefused } from "~/test/rest-assertions";
import { signedInUser, type TestUser } from "~/test/signed-in";

afterAll(() => db.$disconnect());

const SAMPLES_PER_RUN = 200;
// Strings that exist only in places a share page must not reach.
const PRIVATE = { commit: "c0ffee5ecret", branch: "private-branch-x", detail: "bench rig in room 4.12", cpu: "Secret CPU 9000" };
const OTHER = { slug: "other-plans", title: "Unreleased pricing engine", variant: "CONFIDENTIAL_VARIANT", metric: "confidential_metric" };

let owner: TestUser;
let project: { id: string; slug: string };
let sampleValues: Set<number>;
let tokens: { live: string; snapshot: string; single: string };

/** Runs of `variants` × `runs` with raw samples, a time series and details only the project may see. */
function runsWithSamples(variants: readonly { name: string; median: number }[], runs: number, seed: number) {
  return Array.from({ length: runs }, (_, repetition) =>
    variants.map((variant, v) => ({
      variant: variant.name,
      repetition,
      gitCommit: PRIVATE.commit,
      gitBranch: PRIVATE.branch,
      sourceDetail: PRIVATE.detail,
      environment: { cpu: PRIVATE.cpu },
      metrics: [
        {
          key: "latency",
          unit: "ms",
          direction: "lower_is_better",
          samples: lognormalSamples(SAMPLES_PER_RUN, { median: variant.median, sigma: 0.3, seed: seed + repetition * 10 + v }),
        },
        { key: "tps", unit: "req/s", direction: "higher_is_better", timeSeries: { intervalMs: 1000, values: [900 + v, 950 + v, 1000 + v] } },
      ],
    })),
  ).flat();
}

beforeAll(async () => {
  owner = await signedInUser(db, "owner");
  const kafka = await createKafkaProject(db, owner.id);
  project = { id: kafka.projectId, slug: kafka.projectSlug };
  const codecs = runsWithSamples(
    [
      { name: "plain", median: 12 },
      { name: "gzip", median: 9 },
    ],
    4,
    100,
  );
  // One run per variant: the comparison reads the runs' raw samples (weak evidence).
  const single = runsWithSamples(
    [
      { name: "plain", median: 12 },
      { name: "gzip", median: 10 },
    ],
    1,
    500,
  );
  await upload(db, project, { experiment: "codecs", experimentTitle: "Codecs", create: true, runs: codecs });
  await upload(db, project, { experiment: "single", experimentTitle: "Single runs", create: true, runs: single });
  await upload(db, project, {
    experiment: OTHER.slug,
    experimentTitle: OTHER.title,
    create: true,
    runs: [0, 1].map((repetition) => ({
      variant: OTHER.variant,
      repetition,
      metrics: [{ key: OTHER.metric, unit: "ms", direction: "lower_is_better", summary: { n: 10, mean: 1 } }],
    })),
  });
  sampleValues = new Set([...codecs, ...single].flatMap((run) => run.metrics[0]?.samples ?? []));
  tokens = {
    live: (await owner.caller.share.create({ projectSlug: project.slug, experimentSlug: "codecs", mode: "live" })).token,
    snapshot: (await owner.caller.share.create({ projectSlug: project.slug, experimentSlug: "codecs", mode: "snapshot" })).token,
    single: (await owner.caller.share.create({ projectSlug: project.slug, experimentSlug: "single", mode: "live" })).token,
  };
});

/** A tRPC caller whose request carries only `headers`, as a browser without a session would send them. */
const callerWith = (headers: Record<string, string>) => createCaller(() => createTRPCContext({ headers: new Headers(headers), db }));

async function codeOf(call: () => Promise<unknown>): Promise<string> {
  try {
    await call();
    return "OK";
  } catch (error) {
    if (error instanceof TRPCError) return error.code;
    throw error;
  }
}

describe("a share token grants nothing else", () => {
  it("tRPC procedures answer UNAUTHORIZED with the token as a bearer header or as a session cookie", async () => {
    const cookieName = owner.cookie.slice(0, owner.cookie.indexOf("="));
    for (const token of Object.values(tokens)) {
      const carriers: Record<string, string>[] = [
        { authorization: `Bearer ${token}` },
        { cookie: `${cookieName}=${token}` },
        { cookie: `__Secure-${cookieName}=${token}` },
        { cookie: `share_token=${token}; ${cookieName}=${token}`, authorization: `Bearer ${token}` },
      ];
      for (const headers of carriers) {
        const caller = callerWith(headers);
        const ref = { projectSlug: project.slug, experimentSlug: "codecs" };
        const calls = {
          "experiment.get": () => caller.experiment.get(ref),
          "experiment.results": () => caller.experiment.results(ref),
          "experiment.list": () => caller.experiment.list({ projectSlug: project.slug }),
          "report.runsCsv": () => caller.report.runsCsv(ref),
          "share.list": () => caller.share.list(ref),
          "share.create": () => caller.share.create({ ...ref, mode: "live" }),
          "project.list": () => caller.project.list(),
        };
        for (const [name, call] of Object.entries(calls)) expect(`${name}: ${await codeOf(call)}`, JSON.stringify(headers)).toBe(`${name}: UNAUTHORIZED`);
      }
    }
    // Nothing the attempts could have written.
    expect(await db.shareLink.count({ where: { projectId: project.id } })).toBe(3);
  });

  it("the HTTP tRPC endpoint answers 401 too", async () => {
    const input = encodeURIComponent(JSON.stringify({ json: { projectSlug: project.slug, experimentSlug: "codecs" } }));
    const cookieName = owner.cookie.slice(0, owner.cookie.indexOf("="));
    const carriers: Record<string, string>[] = [{ authorization: `Bearer ${tokens.live}` }, { cookie: `${cookieName}=${tokens.live}` }];
    for (const headers of carriers) {
      const response = await trpcGet(new Request(`http://test.local/api/trpc/experiment.get?input=${input}`, { headers }));
      expect(response.status).toBe(401);
      expect(await response.text()).not.toContain("Codecs");
    }
  });

  it("the REST API answers 401 to the token as an API key, and stores nothing", async () => {
    for (const token of Object.values(tokens)) {
      const authorization = `Bearer ${token}`;
      for (const slugOrId of [KAFKA_SLUG, "codecs"]) {
        const request = new Request(`http://test.local/api/v1/experiments/${slugOrId}/comparison`, { headers: { authorization } });
        const response = await getComparisonRoute(request, { params: Promise.resolve({ slugOrId }) });
        expect(response.status).toBe(401);
        expect(((await response.json()) as { error: { code: string } }).error.code).toBe("UNAUTHORIZED");
      }
      const body = JSON.stringify({ experiment: "codecs", runs: [{ variant: "plain", metrics: [{ key: "latency", summary: { n: 1, mean: 1 } }] }] });
      const post = () =>
        postResultsRoute(
          new Request("http://test.local/api/v1/results", { method: "POST", headers: { authorization, "content-type": "application/json" }, body }),
        );
      await expectRefused(db, post, 401, "UNAUTHORIZED");
    }
  });
});

describe("what a share page receives", () => {
  /** Every key and every number anywhere in `value`, numbers with their path. */
  function walk(value: unknown, found = { keys: new Set<string>(), numbers: [] as { path: string; value: number }[] }, path = "") {
    if (typeof value === "number") found.numbers.push({ path, value });
    else if (Array.isArray(value)) value.forEach((item, i) => walk(item, found, `${path}[${i}]`));
    else if (value && typeof value === "object" && !(value instanceof Date)) {
      for (const [key, item] of Object.entries(value)) {
        found.keys.add(key);
        walk(item, found, `${path}.${key}`);
      }
    }
    return found;
  }

  it("holds no run ids, no raw samples, no run details and nothing of another experiment", async () => {
    const runIds = (await db.run.findMany({ where: { experiment: { projectId: project.id } }, select: { id: true } })).map((r) => r.id);
    const experimentIds = (await db.experiment.findMany({ where: { projectId: project.id }, select: { id: true } })).map((e) => e.id);
    expect(runIds.length).toBe(15 + 8 + 2 + 2);
    const anonymous = callerWith({});
    for (const [kind, token] of Object.entries(tokens)) {
      const shared = await anonymous.share.view({ token });
      if (!shared) throw new Error(`${kind}: the link shows nothing`);
      const text = JSON.stringify(shared);
      for (const id of [...runIds, ...experimentIds, project.id]) expect(text, kind).not.toContain(id);
      for (const secret of [...Object.values(PRIVATE), ...Object.values(OTHER), project.slug, KAFKA_SLUG, "/p/"]) expect(text, kind).not.toContain(secret);

      const { keys, numbers } = walk(shared);
      for (const key of ["samples", "samplesBase64", "withinRunSamples", "histogram", "environment", "gitCommit", "projectId"])
        expect(keys.has(key), `${kind}: key ${key}`).toBe(false);
      // Runs appear as their replicate value only, never with an id.
      expect(
        shared.charts?.metrics.map((m) => m.runs.length),
        kind,
      ).toEqual(kind === "single" ? [2, 2] : [8, 8]);
      for (const metric of shared.charts?.metrics ?? []) {
        expect(metric.runs.every((r) => r.runId === null) && metric.timeSeries.every((s) => s.runId === null), kind).toBe(true);
      }
      // Not one raw sample value, even where the comparison itself reads them (the single runs).
      expect(numbers.length).toBeGreaterThan(0);
      expect(
        numbers.filter((n) => sampleValues.has(n.value)).map((n) => n.path),
        kind,
      ).toEqual([]);
    }
  });
});
