// Repetition numbers and positions are allocated, not counted: concurrent uploads to one variant
// get distinct repetitions (0, 1, 2, … in the order they commit), an explicit repetition is never
// handed out again, and concurrent creations of one experiment's variants and metrics get
// distinct positions. The database holds the line too: UNIQUE (variantId, repetition) on Run and
// UNIQUE (experimentId, position) on Variant and Metric. Everything goes through the real REST
// handler or the tRPC procedures, truly concurrently (Promise.all), on the embedded PostgreSQL.
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST } from "~/app/api/v1/results/route";
import { db } from "~/server/db/client";
import { createApiKey } from "~/server/projects/api-keys";
import { createProject } from "~/server/projects/projects";
import { fieldPaths, rowCounts, type ErrorBody, type UploadBody } from "~/test/rest-assertions";
import { signedInUser, type TestUser } from "~/test/signed-in";

afterAll(() => db.$disconnect());

const suffix = () => crypto.randomBytes(4).toString("hex");
let owner: TestUser;
let projectSlug: string;
let key: string;

beforeAll(async () => {
  owner = await signedInUser(db, "numbering");
  projectSlug = `numbering-${suffix()}`;
  await createProject(db, { name: projectSlug, slug: projectSlug, description: "" }, owner.id);
  key = (await createApiKey(db, projectSlug, "numbering test")).secret;
});

async function post(body: object) {
  const response = await POST(
    new Request("http://test.local/api/v1/results", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
      body: JSON.stringify(body),
    }),
  );
  return { status: response.status, body: (await response.json()) as UploadBody & ErrorBody };
}

const latency = (value: number) => ({ key: "latency", unit: "ms", direction: "lower_is_better", samples: [value, value + 1] });
const run = (variant: string, extra: object = {}) => ({ variant, metrics: [latency(10)], ...extra });
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

async function repetitionsOf(experiment: string, variant: string): Promise<number[]> {
  const runs = await db.run.findMany({
    where: { experiment: { slug: experiment, project: { slug: projectSlug } }, variant: { name: variant } },
    select: { repetition: true },
  });
  return runs.map((r) => r.repetition).sort((a, b) => a - b);
}

describe("repetition numbers", () => {
  it("50 concurrent uploads to one variant get the repetitions 0–49, each once", async () => {
    expect((await post({ experiment: "race", create: true, runs: [run("plain")] })).status).toBe(201);
    const answers = await Promise.all(range(50).map(() => post({ experiment: "race", runs: [run("plain")] })));
    expect(answers.map((a) => a.status)).toEqual(range(50).map(() => 201));
    const given = answers.map((a) => a.body.runs[0]?.repetition as number).sort((a, b) => a - b);
    expect(given).toEqual(range(50).map((i) => i + 1));
    expect(await repetitionsOf("race", "plain")).toEqual(range(51));
  });

  it("an explicit repetition is not handed out again: 1, then none → 2", async () => {
    expect((await post({ experiment: "explicit", create: true, runs: [run("plain", { repetition: 1 })] })).body.runs[0]?.repetition).toBe(1);
    expect((await post({ experiment: "explicit", runs: [run("plain")] })).body.runs[0]?.repetition).toBe(2);
    expect(await repetitionsOf("explicit", "plain")).toEqual([1, 2]);
  });

  it("numbers the unnumbered runs of one upload after every number it gives itself", async () => {
    const answer = await post({ experiment: "mixed", create: true, runs: [run("plain"), run("plain", { repetition: 0 }), run("gzip"), run("plain")] });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body.runs.map((r) => [r.variant, r.repetition])).toEqual([
      ["plain", 1],
      ["plain", 0],
      ["gzip", 0],
      ["plain", 2],
    ]);
  });

  it("an explicit repetition that is taken → 409 naming the run's repetition, nothing stored", async () => {
    await post({ experiment: "taken", create: true, runs: [run("plain"), run("plain")] });
    const before = await rowCounts(db);
    const answer = await post({ experiment: "taken", runs: [run("plain", { repetition: 5 }), run("plain", { repetition: 1 })] });
    expect({ status: answer.status, code: answer.body.error?.code }).toEqual({ status: 409, code: "CONFLICT" });
    expect(fieldPaths(answer.body)).toEqual(["runs.1.repetition"]);
    expect(answer.body.error.message).toMatch(/variant "plain" already has a run with repetition 1.*leave repetition out/);
    expect(await rowCounts(db)).toEqual(before);
  });

  it("the same repetition twice for one variant in one upload → 400 naming the second", async () => {
    const before = await rowCounts(db);
    const answer = await post({
      experiment: "twice",
      create: true,
      runs: [run("plain", { repetition: 3 }), run("gzip", { repetition: 3 }), run("plain", { repetition: 3 })],
    });
    expect({ status: answer.status, code: answer.body.error?.code }).toEqual({ status: 400, code: "BAD_REQUEST" });
    expect(fieldPaths(answer.body)).toEqual(["runs.2.repetition"]);
    expect(await rowCounts(db)).toEqual(before);
  });
});

describe("positions", () => {
  it("30 concurrent uploads creating one experiment, each with its own variant and metric, give distinct positions", async () => {
    const answers = await Promise.all(
      range(30).map((i) =>
        post({
          experiment: "matrix",
          create: true,
          runs: [{ variant: `job-${i}`, metrics: [{ key: `m${i}`, unit: "ms", direction: "lower_is_better", samples: [1, 2] }] }],
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(range(30).map(() => 201));
    const experiment = await db.experiment.findFirstOrThrow({
      where: { slug: "matrix", project: { slug: projectSlug } },
      include: { variants: true, metrics: true },
    });
    expect(experiment.variants.map((v) => v.position).sort((a, b) => a - b)).toEqual(range(30));
    expect(experiment.metrics.map((m) => m.position).sort((a, b) => a - b)).toEqual(range(30));
    expect(experiment.variants.filter((v) => v.isBaseline)).toHaveLength(1);
  });

  it("30 concurrent experiment.create calls with one title all succeed, with distinct slugs and positions in input order", async () => {
    const input = {
      title: "Concurrent",
      warmupRuns: 0,
      measuredRuns: 5,
      variants: [
        { name: "a", isBaseline: true },
        { name: "b", isBaseline: false },
        { name: "c", isBaseline: false },
      ],
      metrics: [
        { key: "x", unit: "ms", direction: "lower_is_better" as const },
        { key: "y", unit: "ms", direction: "lower_is_better" as const },
      ],
    };
    const created = await Promise.all(range(30).map(() => owner.caller.experiment.create({ projectSlug, experiment: input })));
    expect(new Set(created.map((c) => c.slug)).size).toBe(30);
    const experiments = await db.experiment.findMany({ where: { slug: { in: created.map((c) => c.slug) } }, include: { variants: true, metrics: true } });
    for (const experiment of experiments) {
      expect(experiment.variants.map((v) => [v.name, v.position]).sort()).toEqual([
        ["a", 0],
        ["b", 1],
        ["c", 2],
      ]);
      expect(experiment.metrics.map((m) => [m.key, m.position]).sort()).toEqual([
        ["x", 0],
        ["y", 1],
      ]);
    }
  });
});

describe("the database refuses duplicates itself", () => {
  let experimentId: string;
  let variantId: string;
  beforeAll(async () => {
    await post({ experiment: "constraints", create: true, runs: [run("plain")] });
    const experiment = await db.experiment.findFirstOrThrow({ where: { slug: "constraints", project: { slug: projectSlug } }, include: { variants: true } });
    experimentId = experiment.id;
    variantId = experiment.variants[0]!.id;
  });

  const refused = (statement: Promise<unknown>, constraint: string) => expect(statement).rejects.toThrow(new RegExp(`23505.*${constraint}`));

  it("a second run with a repetition the variant has", async () => {
    await refused(
      db.$executeRaw`INSERT INTO "Run" (id, "experimentId", "variantId", source, repetition) VALUES (${`dup-${suffix()}`}, ${experimentId}, ${variantId}, 'upload', 0)`,
      "Run_variantId_repetition_key",
    );
  });

  it("a second variant at a position the experiment has", async () => {
    await refused(
      db.$executeRaw`INSERT INTO "Variant" (id, "experimentId", name, position) VALUES (${`dup-${suffix()}`}, ${experimentId}, 'another', ${0})`,
      "Variant_experimentId_position_key",
    );
  });

  it("a second metric at a position the experiment has", async () => {
    await refused(
      db.$executeRaw`INSERT INTO "Metric" (id, "experimentId", key, unit, direction, position) VALUES (${`dup-${suffix()}`}, ${experimentId}, 'another', 'ms', 'lower_is_better', ${0})`,
      "Metric_experimentId_position_key",
    );
  });
});
