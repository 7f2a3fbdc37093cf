// A process keeps the experiments its uploads stored into (upload-experiment-cache.ts) and stores
// later uploads under that copy, without reading the experiment again. The statement checks the
// copy against the experiment's row (its slug and definitionVersion, which triggers advance), so a
// change made since — here straight in the database, as another process's edit would be — is
// never stored across: the upload reads again and answers as for the experiment as it now is.
import { afterAll, beforeAll, expect, it } from "vitest";
import { db } from "~/server/db/client";
import { ingestResults, type IngestOptions } from "~/server/runs/ingest-results";
import type { TResultsUpload } from "~/server/schemas/results";
import { uploadProject } from "~/test/upload-project";

let options: IngestOptions;

beforeAll(async () => {
  options = await uploadProject(db, "kept-copy");
});
afterAll(() => db.$disconnect());

const upload = (experiment: string, variant: string, unit = "ms", create = false): TResultsUpload => ({
  experiment,
  create,
  runs: [{ variant, status: "succeeded", environment: {}, tags: [], metrics: [{ key: "latency", unit, direction: "lower_is_better", samples: [1, 2, 3] }] }],
});

/** An experiment with variant "a" and metric "latency", stored into twice: the second upload leaves this process a copy of it. */
async function keptExperiment(slug: string) {
  await ingestResults(db, upload(slug, "a", "ms", true), options);
  await ingestResults(db, upload(slug, "a"), options);
  return db.experiment.findFirstOrThrow({ where: { projectId: options.projectId, slug }, include: { variants: true, metrics: true } });
}

const runsOf = async (experimentId: string) =>
  (await db.run.findMany({ where: { experimentId }, include: { variant: true }, orderBy: { id: "asc" } })).map((run) => [run.variant.name, run.repetition]);

it("the copy serves the next upload: a rename the triggers never saw goes unnoticed, which is why every change goes through them", async () => {
  const experiment = await keptExperiment("copy-serves");
  const a = experiment.variants[0] as { id: string };
  // Triggers off for this transaction only (replica mode): the version stays as the copy has it.
  await db.$transaction([
    db.$executeRaw`SET LOCAL session_replication_role = replica`,
    db.$executeRaw`UPDATE "Variant" SET "name" = 'renamed' WHERE "id" = ${a.id}`,
  ]);
  const answer = await ingestResults(db, upload("copy-serves", "a"), options);
  // Stored by the copy's id for "a", under the variant now named "renamed": the copy was used, not a read.
  expect(answer.runs.map((run) => [run.variant, run.repetition])).toEqual([["a", 2]]);
  expect(await runsOf(experiment.id)).toEqual([
    ["renamed", 0],
    ["renamed", 1],
    ["renamed", 2],
  ]);
});

it("a variant renamed since the copy: an upload naming the old name is refused, the new name is stored", async () => {
  const experiment = await keptExperiment("renamed-variant");
  const before = experiment.definitionVersion;
  await db.variant.update({ where: { id: (experiment.variants[0] as { id: string }).id }, data: { name: "b" } });
  expect((await db.experiment.findUniqueOrThrow({ where: { id: experiment.id } })).definitionVersion).toBe(before + 1);

  await expect(ingestResults(db, upload("renamed-variant", "a"), options)).rejects.toThrow(/has no variant "a" \(it has "b"\)/);
  const answer = await ingestResults(db, upload("renamed-variant", "b"), options);
  expect(answer.runs.map((run) => [run.variant, run.repetition])).toEqual([["b", 2]]);
  expect(await runsOf(experiment.id)).toEqual([
    ["b", 0],
    ["b", 1],
    ["b", 2],
  ]);
});

it("a metric's unit changed since the copy: an upload in the old unit is refused", async () => {
  const experiment = await keptExperiment("changed-unit");
  await db.metric.update({ where: { id: (experiment.metrics[0] as { id: string }).id }, data: { unit: "s" } });
  await expect(ingestResults(db, upload("changed-unit", "a", "ms"), options)).rejects.toThrow(/measured in s, not ms/);
  const answer = await ingestResults(db, upload("changed-unit", "a", "s"), options);
  expect(answer.runs.map((run) => run.repetition)).toEqual([2]);
  expect(await runsOf(experiment.id)).toHaveLength(3);
});

it("an experiment given another slug since the copy: its old slug is not found, not stored into", async () => {
  const experiment = await keptExperiment("old-slug");
  // The slug alone: no variant or metric changes, so the version stays; the statement checks the slug too.
  await db.experiment.update({ where: { id: experiment.id }, data: { slug: "new-slug" } });
  expect((await db.experiment.findUniqueOrThrow({ where: { id: experiment.id } })).definitionVersion).toBe(experiment.definitionVersion);
  await expect(ingestResults(db, upload("old-slug", "a"), options)).rejects.toThrow(/No experiment "old-slug"/);
  expect(await runsOf(experiment.id)).toHaveLength(2);
});

it("an experiment deleted and made again under its slug since the copy: the upload goes to the new one", async () => {
  const first = await keptExperiment("made-again");
  await db.experiment.delete({ where: { id: first.id } });
  const second = await db.experiment.create({
    data: {
      projectId: options.projectId,
      slug: "made-again",
      title: "Made again",
      variants: { create: [{ name: "z", isBaseline: true, position: 0 }] },
      metrics: { create: [{ key: "latency", unit: "ms", direction: "lower_is_better", position: 0 }] },
    },
  });
  const answer = await ingestResults(db, upload("made-again", "a", "ms", true), options);
  expect(answer.created.variants).toEqual(["a"]);
  expect(await runsOf(second.id)).toEqual([["a", 0]]);
});

it("the version moves with variants and metrics added, deleted or redefined, and not with runs stored", async () => {
  const experiment = await keptExperiment("version-moves");
  const version = async () => (await db.experiment.findUniqueOrThrow({ where: { id: experiment.id } })).definitionVersion;
  let expected = experiment.definitionVersion;
  await ingestResults(db, upload("version-moves", "a"), options);
  expect(await version()).toBe(expected);

  const b = await db.variant.create({ data: { experimentId: experiment.id, name: "b", position: 1 } });
  expect(await version()).toBe(++expected);
  // Columns an upload does not read leave it.
  await db.variant.update({ where: { id: b.id }, data: { description: "the other one", position: 2 } });
  expect(await version()).toBe(expected);
  await db.variant.delete({ where: { id: b.id } });
  expect(await version()).toBe(++expected);

  const metric = await db.metric.create({ data: { experimentId: experiment.id, key: "rss", unit: "MB", direction: "lower_is_better", position: 1 } });
  expect(await version()).toBe(++expected);
  await db.metric.update({ where: { id: metric.id }, data: { label: "Resident memory" } });
  expect(await version()).toBe(expected);
  await db.metric.update({ where: { id: metric.id }, data: { direction: "higher_is_better" } });
  expect(await version()).toBe(++expected);
  await db.metric.delete({ where: { id: metric.id } });
  expect(await version()).toBe(++expected);
});

it("an edit in progress when the upload's statement comes: the statement waits for it, then sees the rename and writes nothing", async () => {
  const experiment = await keptExperiment("edit-in-progress");
  const a = (experiment.variants[0] as { id: string }).id;
  let commit: () => void = () => undefined;
  const committed = new Promise<void>((resolve) => (commit = resolve));
  const edit = db.$transaction(async (tx) => {
    // As updateExperiment does: the experiment's exclusive lock first, then the rename.
    await tx.$queryRaw`SELECT "id" FROM "Experiment" WHERE "id" = ${experiment.id} FOR NO KEY UPDATE`;
    await tx.variant.update({ where: { id: a }, data: { name: "b" } });
    await committed;
  });
  const stored = ingestResults(db, upload("edit-in-progress", "a"), options).then(
    (answer) => ({ answer }),
    (error: unknown) => ({ error }),
  );
  // The statement waits for the edit's lock on the experiment's row.
  for (let waited = 0; ; waited += 20) {
    const [row] = await db.$queryRaw<{ waiting: bigint }[]>`
      SELECT count(*) AS "waiting" FROM pg_stat_activity WHERE "wait_event_type" = 'Lock' AND "query" LIKE '%experiment_lock%'`;
    if (Number(row?.waiting) > 0) break;
    if (waited > 10_000) throw new Error("the upload's statement never waited for the edit's lock");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  commit();
  await edit;
  const outcome = await stored;
  expect("error" in outcome ? String(outcome.error) : "stored").toMatch(/has no variant "a" \(it has "b"\)/);
  expect(await runsOf(experiment.id)).toEqual([
    ["b", 0],
    ["b", 1],
  ]);
});
