// A run's explicit value is what it contributes wherever runs are compared: runs whose summaries
// describe per-second rates (mean 100, 110…) and whose values are the whole runs' rates (200,
// 210…) are compared on the values — by the experiment's comparison, its charts' run values, the
// history over commits, the CI check, the cross-experiment comparison and runs.csv — and a run
// without a value still contributes its summary by the metric's aggregation. Real PostgreSQL.
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createPrismaClient } from "~/server/db/client";
import { getCommitSeries } from "~/server/history/commit-series";
import { checkCommit } from "~/server/regressions/check";
import { ZCheckQuery } from "~/server/schemas/check";
import { ZResultsUpload } from "~/server/schemas/results";
import { createProject } from "../projects/projects";
import { getExperimentResults } from "../comparison/charts";
import { getComparison } from "../comparison/comparison";
import { compareRunSets } from "../comparison/cross-comparison";
import { getExperiment } from "../experiments/experiments";
import { listMetricResults } from "./experiment-runs";
import { exportRunsCsv } from "../reports/exports";
import { ingestResults } from "./ingest-results";

const db = createPrismaClient(inject("databaseUrl"));
afterAll(() => db.$disconnect());

const SLUG = "rates";
const commit = (i: number) => i.toString(16).padStart(40, "0");
/** Per-second rates around `perSecond`, and the whole run's rate `value`. */
const run = (variant: string, i: number, perSecond: number, value: number | undefined) => ({
  variant,
  gitCommit: commit(i),
  gitBranch: "main",
  gitCommitTime: new Date(Date.UTC(2026, 10, 1, 0, i)).toISOString(),
  metrics: [
    {
      key: "throughput",
      unit: "req/s",
      direction: "higher_is_better",
      timeSeries: { intervalMs: 1000, values: [perSecond - 1, perSecond, perSecond + 1] },
      ...(value === undefined ? {} : { value }),
    },
  ],
});

let project: { id: string; slug: string };

beforeAll(async () => {
  const slug = `run-figure-${Math.random().toString(36).slice(2, 8)}`;
  project = await createProject(db, { name: slug, slug, description: "" });
  const runs = [
    ...[0, 1, 2, 3, 4].map((i) => run("before", i, 100 + i, 200 + i)),
    ...[5, 6, 7, 8, 9].map((i) => run("after", i, 100 + i, 300 + i)),
    // No value: the summary's mean (of its per-second points) is its figure.
    run("plain", 10, 50, undefined),
  ];
  await ingestResults(db, ZResultsUpload.parse({ experiment: SLUG, create: true, runs }), {
    projectId: project.id,
    projectSlug: project.slug,
    source: "upload",
    bodySha256: slug,
    baseUrl: "",
  });
});

describe("a run's explicit value", () => {
  it("is the replicate of the comparison, the charts' run values and runs.csv's compared value", async () => {
    const comparison = await getComparison(db, { projectId: project.id }, SLUG, "before");
    const variants = comparison.metrics[0]?.comparison?.variants ?? [];
    expect(variants.map((v) => [v.variant, v.median])).toEqual([
      ["before", 202],
      ["after", 307],
      ["plain", 50],
    ]);

    const { charts } = await getExperimentResults(db, { projectSlug: project.slug }, SLUG);
    const values = charts?.metrics[0]?.runs.map((r) => [r.variant, r.value]);
    expect(values).toEqual([
      ["before", 200],
      ["before", 201],
      ["before", 202],
      ["before", 203],
      ["before", 204],
      ["after", 305],
      ["after", 306],
      ["after", 307],
      ["after", 308],
      ["after", 309],
      ["plain", 50],
    ]);

    const csv = parse((await exportRunsCsv(db, { projectSlug: project.slug }, SLUG)).text, { columns: true }) as Record<string, string>[];
    expect(csv.map((r) => [r.mean, r.value, r.compared_value])).toContainEqual(["101", "201", "201"]);
    expect(csv.find((r) => r.variant === "plain")).toMatchObject({ mean: "50", value: "", compared_value: "50" });
  });

  it("is each run's value in the history, the CI check and the cross-experiment comparison", async () => {
    const experiment = await db.experiment.findFirstOrThrow({ where: { projectId: project.id, slug: SLUG } });
    const history = await getCommitSeries(db, { experimentId: experiment.id, metric: "throughput", variant: "after" });
    expect(history.map((p) => p.runValues)).toEqual([[305], [306], [307], [308], [309]]);

    const check = await checkCommit(
      db,
      { projectId: project.id, projectSlug: project.slug, baseUrl: "" },
      SLUG,
      ZCheckQuery.parse({ commit: commit(9), branch: "main", window: 4, variant: "after" }),
    );
    expect(check.metrics[0]).toMatchObject({ median: 309, baselineMedian: 306.5 });

    const cross = await compareRunSets(
      db,
      { projectSlug: project.slug },
      { experimentSlug: SLUG, variant: "before" },
      { experimentSlug: SLUG, variant: "after" },
    );
    expect(cross.metrics[0]?.comparison?.variants.map((v) => v.median)).toEqual([202, 307]);
  });

  it("is shown on the run detail next to the summary, marked when the producer sent it; a flagged summary carries its note", async () => {
    const note = "Stored before Versus checked that a summary describes its values: its sum is not mean × n.";
    const plain = await db.runMetricResult.findFirstOrThrow({ where: { run: { variant: { name: "plain" }, experiment: { projectId: project.id } } } });
    await db.runMetricResult.update({ where: { id: plain.id }, data: { summaryNote: note } });
    const { experiment } = await getExperiment(db, project.slug, SLUG);
    const pages = await Promise.all(experiment.metrics.map((metric) => listMetricResults(db, project.id, SLUG, metric.key, { offset: 0, limit: 100 })));
    const shown = pages.flatMap((page) => page.rows.map(({ run, result }) => ({ variant: run.variant, ...result })));
    expect(shown.find((r) => r.variant === "after" && r.runValue === 309)).toMatchObject({ explicit: true, mean: 109, n: 3, summaryNote: null });
    expect(shown.find((r) => r.variant === "plain")).toMatchObject({ runValue: 50, explicit: false, mean: 50, summaryNote: note });
  });
});
