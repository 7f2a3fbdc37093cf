// Example data loaded on first start: the five write-ups of docs/examples.md as experiments with their
// runs, a history of 300 commits with two shifts (./data/gzip-history.ts), and runnable
// experiments without runs that an agent measures when a user presses Run;
// labelled as example data (isExample, a tag on every run, a note in every description) and
// easy to delete (delete the project, or any one experiment). The definitions and the seeded
// synthetic numbers live in ./data/, one module per write-up; the runs are stored by
// ingestResults, the service behind POST /api/v1/results, exactly as an upload would be.
//
// Loaded once per installation: a marker in InstanceSetting keeps deleted examples deleted. If a
// load fails part-way the marker is removed, and the next attempt skips the experiments already
// complete (they have runs), so nothing is stored twice.
import { createHash } from "node:crypto";
import type { Db } from "../db/client";
import { isUniqueViolation } from "../db/prisma-errors";
import { exampleExperiments, exampleHistories } from "./data/catalog";
import type { ExampleExperiment } from "./data/common";
import { createExperiment } from "../experiments/experiments";
import { createProject } from "../projects/projects";
import { ingestResults } from "../runs/ingest-results";

const MARKER = "exampleDataLoaded";
export const EXAMPLE_PROJECT_SLUG = "examples";

export async function loadExampleDataOnce(db: Db): Promise<"loaded" | "already-loaded"> {
  // The marker row doubles as a lock: of two processes starting at once, one inserts it.
  try {
    await db.instanceSetting.create({ data: { key: MARKER, value: { at: new Date().toISOString() } } });
  } catch (error) {
    if (isUniqueViolation(error)) return "already-loaded";
    throw error;
  }
  try {
    await loadExamples(db);
  } catch (error) {
    await db.instanceSetting.delete({ where: { key: MARKER } });
    throw error;
  }
  return "loaded";
}

async function loadExamples(db: Db) {
  const project =
    (await db.project.findUnique({ where: { slug: EXAMPLE_PROJECT_SLUG } })) ??
    (await createProject(db, {
      name: "Examples",
      slug: EXAMPLE_PROJECT_SLUG,
      description:
        "Example data from five published performance write-ups, and an experiment to run on your own machine. Delete this project any time; it does not come back.",
    }));
  // Last first: the project's list shows the most recently updated first, so it then reads in
  // docs/examples.md's order, starting with the S3 upload.
  for (const example of [...exampleExperiments].reverse()) await loadExperiment(db, project, example);
  // Then the history, which so heads the list (its change points are found right after, in the
  // background, as after any upload).
  for (const example of exampleHistories) await loadExperiment(db, project, example);
}

async function loadExperiment(db: Db, project: { id: string; slug: string }, example: ExampleExperiment) {
  const { slug } = example.definition;
  const existing = await db.experiment.findUnique({
    where: { projectId_slug: { projectId: project.id, slug } },
    select: { id: true, isExample: true, _count: { select: { runs: true } } },
  });
  if (existing) {
    // Complete from an earlier attempt (a runnable example is complete without runs), or the
    // user's own experiment under this slug: leave it.
    if (existing._count.runs > 0 || !existing.isExample || !example.results) return;
    // An example without runs: an attempt stopped between creating it and storing its runs.
    await db.experiment.delete({ where: { id: existing.id } });
  }
  await createExperiment(db, project.slug, example.definition, { isExample: true });
  if (!example.results) return;
  const upload = example.results();
  await ingestResults(db, upload, {
    projectId: project.id,
    projectSlug: project.slug,
    source: "example",
    bodySha256: createHash("sha256").update(JSON.stringify(upload)).digest("hex"),
    baseUrl: "",
  });
}
