// Uploads to one experiment do not wait in a single line: one that only adds runs to variants and
// metrics that exist shares the experiment's lock, so while an upload to one variant is held inside
// its transaction, an upload to another variant of the same experiment commits. Uploads to the
// same variant still get distinct repetitions (they meet at the variant's counter), and an edit of
// the experiment waits for the uploads sharing its lock, so nothing it removes vanishes under them.
import { afterAll, beforeAll, expect, it } from "vitest";
import { db } from "~/server/db/client";
import { ingestResults, type IngestOptions } from "~/server/runs/ingest-results";
import type { TResultsUpload } from "~/server/schemas/results";
import { uploadProject } from "~/test/upload-project";

let options: IngestOptions;

beforeAll(async () => {
  options = await uploadProject(db, "parallel");
});
afterAll(() => db.$disconnect());

const upload = (variant: string, value: number): TResultsUpload => ({
  experiment: "side-by-side",
  create: true,
  runs: [
    {
      variant,
      status: "succeeded",
      environment: {},
      tags: [],
      metrics: [{ key: "latency", unit: "ms", direction: "lower_is_better", samples: [value, value + 1] }],
    },
  ],
});

/** An upload held inside its transaction (after storing, before commit) until `release`. */
async function heldUpload(body: TResultsUpload) {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let holding!: () => void;
  const inside = new Promise<void>((resolve) => (holding = resolve));
  const stored = ingestResults(db, body, {
    ...options,
    afterStore: async () => {
      holding();
      await held;
    },
  });
  await inside;
  return { stored, release };
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

it("an upload to one variant commits while an upload to another variant of the experiment is held", async () => {
  // The experiment, both variants and the metric exist first.
  await ingestResults(db, upload("a", 1), options);
  await ingestResults(db, upload("b", 1), options);

  const held = await heldUpload(upload("a", 2));
  try {
    const other = await within(ingestResults(db, upload("b", 3), options), 20_000, "the upload to variant b");
    expect(other.runs.map((run) => [run.variant, run.repetition])).toEqual([["b", 1]]);
  } finally {
    held.release();
  }
  expect((await held.stored).runs.map((run) => [run.variant, run.repetition])).toEqual([["a", 1]]);

  // Many at once to both variants: every run stored, each under its own repetition.
  const burst = await Promise.all(Array.from({ length: 12 }, (_, i) => ingestResults(db, upload(i % 2 ? "b" : "a", 10 + i), options)));
  const repetitions = (variant: string) =>
    burst
      .flatMap((answer) => answer.runs)
      .filter((run) => run.variant === variant)
      .map((run) => run.repetition)
      .sort((x, y) => x - y);
  expect(repetitions("a")).toEqual([2, 3, 4, 5, 6, 7]);
  expect(repetitions("b")).toEqual([2, 3, 4, 5, 6, 7]);
});

it("an upload that creates a variant waits for an upload that only adds runs, and then numbers its positions after it", async () => {
  const held = await heldUpload(upload("a", 20));
  let created = false;
  const creating = ingestResults(db, upload("c", 21), options).then((answer) => ((created = true), answer));
  try {
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(created).toBe(false);
  } finally {
    held.release();
  }
  await held.stored;
  const answer = await creating;
  expect(answer.created.variants).toEqual(["c"]);
  const variants = await db.variant.findMany({ where: { experiment: { projectId: options.projectId, slug: "side-by-side" } }, orderBy: { position: "asc" } });
  expect(variants.map((v) => [v.name, v.position])).toEqual([
    ["a", 0],
    ["b", 1],
    ["c", 2],
  ]);
});
