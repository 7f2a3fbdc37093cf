// An upload whose experiment has every variant and metric it names is stored by one statement
// (store-runs.ts, storeUploadRuns) after a read of the experiment that takes no lock. What changes
// between the read and the statement must not leave part of the upload behind: a variant deleted
// meanwhile fails the statement, which wrote nothing, and the upload's transaction answers as it
// does for a variant that is not there. Requests with one Idempotency-Key at once store it once.
import { afterAll, beforeAll, expect, it } from "vitest";
import { db, type Db } from "~/server/db/client";
import { ingestResults, type IngestOptions } from "~/server/runs/ingest-results";
import type { TResultsUpload } from "~/server/schemas/results";
import { insertsRuns, withPoolInFront } from "~/test/pool-in-front";
import { uploadProject } from "~/test/upload-project";

let options: IngestOptions;

beforeAll(async () => {
  options = await uploadProject(db, "statement");
});
afterAll(() => db.$disconnect());

const upload = (experiment: string, variant: string, create: boolean): TResultsUpload => ({
  experiment,
  create,
  runs: [
    { variant, status: "succeeded", environment: {}, tags: [], metrics: [{ key: "latency", unit: "ms", direction: "lower_is_better", samples: [1, 2, 3] }] },
  ],
});

/** `real`, except that `before` runs once just before the first statement that inserts runs is sent. */
function beforeRunsStatement(real: Db, before: () => Promise<unknown>): Db {
  let pending: (() => Promise<unknown>) | null = before;
  return withPoolInFront(real, (pool) => ({
    connect: () => pool.connect(),
    query: async (config, ...rest) => {
      if (pending && insertsRuns(config)) {
        const run = pending;
        pending = null;
        await run();
      }
      return (pool.query as (...a: unknown[]) => unknown)(config, ...rest);
    },
  }));
}

const keyed = (key: string) => ({ ...options, idempotencyKey: key, bodySha256: `sha of ${key}` });

it("a variant deleted between the upload's read and its statement: nothing of the statement stays, and the transaction refuses or creates it", async () => {
  await ingestResults(db, upload("changed", "a", true), options);
  const experiment = await db.experiment.findFirstOrThrow({ where: { projectId: options.projectId, slug: "changed" } });
  const addB = () => db.variant.create({ data: { experimentId: experiment.id, name: "b", position: 1 } });
  let b = await addB();
  const deleteB = () => db.variant.delete({ where: { id: b.id } });

  // Without "create": the statement fails on the deleted variant, the transaction finds no "b".
  await expect(ingestResults(beforeRunsStatement(db, deleteB), upload("changed", "b", false), keyed("deleted-1"))).rejects.toThrow(/has no variant "b"/);
  expect(await db.ingestRequest.count({ where: { projectId: options.projectId, idempotencyKey: "deleted-1" } })).toBe(0);
  expect(await db.run.count({ where: { experimentId: experiment.id } })).toBe(1);

  // With "create": the transaction creates "b" again and stores the run there, once.
  b = await addB();
  const answer = await ingestResults(beforeRunsStatement(db, deleteB), upload("changed", "b", true), keyed("deleted-2"));
  expect(answer.created.variants).toEqual(["b"]);
  expect(answer.runs.map((run) => [run.variant, run.repetition])).toEqual([["b", 0]]);
  const runs = await db.run.findMany({ where: { experimentId: experiment.id }, include: { variant: true, ingestRequest: true } });
  expect(runs.map((run) => [run.variant.name, run.repetition, run.ingestRequest?.idempotencyKey ?? null]).sort()).toEqual([
    ["a", 0, null],
    ["b", 0, "deleted-2"],
  ]);
});

it("eight requests with one Idempotency-Key at once store the upload once; the others replay its runs", async () => {
  await ingestResults(db, upload("at-once", "a", true), options);
  const answers = await Promise.all(Array.from({ length: 8 }, () => ingestResults(db, upload("at-once", "a", false), keyed("at-once-1"))));
  expect(answers.filter((answer) => !answer.replayed)).toHaveLength(1);
  const ids = new Set(answers.flatMap((answer) => answer.runs.map((run) => run.id)));
  expect(ids.size).toBe(1);
  const stored = await db.run.findMany({ where: { experiment: { projectId: options.projectId, slug: "at-once" } }, orderBy: { repetition: "asc" } });
  expect(stored.map((run) => run.repetition)).toEqual([0, 1]);
  expect(stored[1]?.id).toBe([...ids][0]);
});
