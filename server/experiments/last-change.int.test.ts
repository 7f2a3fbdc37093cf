// An experiment's last change is the later of its last edit and its newest run: runs move it to
// the top of the experiments list (and the page's "Updated") without writing its row, which every
// upload sharing the row's lock would wait for.
import { afterAll, beforeAll, expect, it } from "vitest";
import { db } from "~/server/db/client";
import { ingestResults, type IngestOptions } from "~/server/runs/ingest-results";
import { getExperiment, listExperiments } from "~/server/experiments/experiments";
import { uploadProject } from "~/test/upload-project";

let options: IngestOptions;

beforeAll(async () => {
  options = await uploadProject(db, "last-change");
});
afterAll(() => db.$disconnect());

const upload = (experiment: string) =>
  ingestResults(
    db,
    {
      experiment,
      create: true,
      runs: [{ variant: "main", status: "succeeded", tags: [], environment: {}, metrics: [{ key: "t", unit: "ms", direction: "lower_is_better", value: 1 }] }],
    },
    options,
  );

it("puts the experiment with the newest run first, and shows that run's time, without writing the experiment's row", async () => {
  await upload("older");
  await upload("newer");
  const order = async () => (await listExperiments(db, options.projectSlug)).experiments.map((e) => e.slug);
  expect(await order()).toEqual(["newer", "older"]);

  const row = async () => db.experiment.findFirstOrThrow({ where: { projectId: options.projectId, slug: "older" }, select: { id: true, updatedAt: true } });
  const before = await row();
  await upload("older");
  expect(await order()).toEqual(["older", "newer"]);
  const newest = await db.run.findFirstOrThrow({ where: { experimentId: before.id }, orderBy: { createdAt: "desc" }, select: { createdAt: true } });
  expect((await listExperiments(db, options.projectSlug)).experiments[0]?.updatedAt).toEqual(newest.createdAt);
  expect((await getExperiment(db, options.projectSlug, "older")).experiment.updatedAt).toEqual(newest.createdAt);
  expect((await row()).updatedAt).toEqual(before.updatedAt);
});

it("keeps an edit newer than every run as the last change", async () => {
  await upload("edited");
  const edited = new Date(Date.now() + 60_000);
  await db.experiment.updateMany({ where: { projectId: options.projectId, slug: "edited" }, data: { updatedAt: edited } });
  const list = (await listExperiments(db, options.projectSlug)).experiments;
  expect(list[0]).toMatchObject({ slug: "edited", updatedAt: edited });
  expect((await getExperiment(db, options.projectSlug, "edited")).experiment.updatedAt).toEqual(edited);
});
