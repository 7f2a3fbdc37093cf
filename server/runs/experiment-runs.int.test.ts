// The experiment page's paged lists through tRPC on a real PostgreSQL: pages of runs (newest
// first) and of one metric's results (by variant, then repetition), with their totals; bad paging
// input is refused on its field; an unknown experiment or metric is a 404.
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { createPrismaClient } from "../db/client";
import { poolOf } from "../db/prepared-statements";
import { MAX_RUNS_PAGE_SIZE, RUNS_PAGE_SIZE } from "../schemas/experiment-runs";
import { ZResultsUpload } from "../schemas/results";
import { listMetricResults, listRuns } from "./experiment-runs";
import { ingestResults } from "./ingest-results";
import { expectTRPCError, fieldIssuesOfError } from "~/test/trpc-errors";
import { signedInUser } from "~/test/signed-in";

const db = createPrismaClient(inject("databaseUrl"));
const owner = await signedInUser(db, "experiment-runs");
afterAll(() => db.$disconnect());

const suffix = crypto.randomBytes(4).toString("hex");
const projectSlug = `it-runs-${suffix}`;
const experimentSlug = "paged";
/** Runs per variant: more than one page of each list. */
const PER_VARIANT = 25;
let projectId: string;

beforeAll(async () => {
  const project = await owner.caller.project.create({ name: `Runs ${suffix}`, slug: projectSlug });
  projectId = project.id;
  await owner.caller.experiment.create({
    projectSlug,
    experiment: {
      title: "Paged",
      slug: experimentSlug,
      warmupRuns: 0,
      measuredRuns: 3,
      variants: [
        { name: "base", isBaseline: true },
        { name: "cand", isBaseline: false },
      ],
      metrics: [
        { key: "latency", unit: "ms", direction: "lower_is_better" },
        { key: "size", unit: "B", direction: "lower_is_better" },
      ],
    },
  });
  // One upload per run, the candidate's after the baseline's, so creation order is known: the
  // value says which run it is (variant offset + repetition).
  for (const [index, variant] of ["base", "cand"].entries()) {
    for (let repetition = 0; repetition < PER_VARIANT; repetition++) {
      const value = index * 1000 + repetition;
      await ingestResults(
        db,
        ZResultsUpload.parse({
          experiment: experimentSlug,
          runs: [
            {
              variant,
              repetition,
              metrics: [{ key: "latency", summary: { n: 1, mean: value } }, ...(repetition % 5 === 0 ? [] : [{ key: "size", summary: { n: 1, mean: value } }])],
            },
          ],
        }),
        { projectId: project.id, projectSlug, source: "upload", bodySha256: crypto.randomBytes(32).toString("hex"), baseUrl: "http://test.local" },
      );
    }
  }
});

describe("experiment.runs", () => {
  it("answers the newest runs first, a page at a time, with the total", async () => {
    const first = await owner.caller.experiment.runs({ projectSlug, experimentSlug });
    expect(first.total).toBe(2 * PER_VARIANT);
    expect(first.limit).toBe(RUNS_PAGE_SIZE);
    expect(first.runs.map((run) => `${run.variant}#${run.repetition}`).slice(0, 3)).toEqual(["cand#24", "cand#23", "cand#22"]);
    expect(first.runs).toHaveLength(RUNS_PAGE_SIZE);
    // Every field the runs table reads, typed as the page gets it.
    expect(first.runs[0]).toEqual({
      id: expect.any(String),
      status: "succeeded",
      source: "upload",
      sourceDetail: "",
      repetition: 24,
      createdAt: expect.any(Date),
      finishedAt: expect.any(Date),
      gitCommit: null,
      gitBranch: null,
      environment: {},
      warnings: [],
      variant: "cand",
      noise: false,
      agents: 1,
    });

    const second = await owner.caller.experiment.runs({ projectSlug, experimentSlug, offset: 20, limit: 20 });
    expect(second.offset).toBe(20);
    expect(second.runs.map((run) => `${run.variant}#${run.repetition}`)).toEqual([
      ...Array.from({ length: 5 }, (_, i) => `cand#${4 - i}`),
      ...Array.from({ length: 15 }, (_, i) => `base#${24 - i}`),
    ]);

    const last = await owner.caller.experiment.runs({ projectSlug, experimentSlug, offset: 40, limit: 20 });
    expect(last.runs.map((run) => run.repetition)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    // Every run once across the pages.
    const ids = [...first.runs, ...second.runs, ...last.runs].map((run) => run.id);
    expect(new Set(ids).size).toBe(2 * PER_VARIANT);
  });

  it("reads the total and a page in one statement; a page past the end is empty, with the total", async () => {
    // A page's reads share one connection, where every statement is a round trip of its own.
    const statements = vi.spyOn(poolOf(db), "query");
    const past = await listRuns(db, projectId, experimentSlug, { offset: 2 * PER_VARIANT, limit: RUNS_PAGE_SIZE });
    const results = await listMetricResults(db, projectId, experimentSlug, "size", { offset: 1000, limit: RUNS_PAGE_SIZE });
    expect(statements).toHaveBeenCalledTimes(2);
    statements.mockRestore();
    expect(past).toMatchObject({ runs: [], total: 2 * PER_VARIANT, offset: 2 * PER_VARIANT });
    expect(results).toMatchObject({ rows: [], total: 2 * (PER_VARIANT - 5), offset: 1000 });
  });

  it("refuses paging input that is not a page, naming the field", async () => {
    for (const [input, path] of [
      [{ limit: MAX_RUNS_PAGE_SIZE + 1 }, "limit"],
      [{ limit: 0 }, "limit"],
      [{ offset: -1 }, "offset"],
      [{ offset: 1.5 }, "offset"],
    ] as const) {
      const error = await expectTRPCError(owner.caller.experiment.runs({ projectSlug, experimentSlug, ...input }), "BAD_REQUEST");
      expect(fieldIssuesOfError(error).map((issue) => issue.path.join("."))).toEqual([path]);
    }
  });

  it("is a 404 for an experiment the project does not have", async () => {
    const error = await expectTRPCError(owner.caller.experiment.runs({ projectSlug, experimentSlug: "missing" }), "NOT_FOUND");
    expect(error.message).toContain('"missing"');
  });
});

describe("experiment.metricResults", () => {
  it("answers one metric's results by variant, then repetition, with the total of that metric", async () => {
    const first = await owner.caller.experiment.metricResults({ projectSlug, experimentSlug, metricKey: "latency" });
    expect(first.total).toBe(2 * PER_VARIANT);
    expect(first.rows.map((row) => row.result.mean)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    const second = await owner.caller.experiment.metricResults({ projectSlug, experimentSlug, metricKey: "latency", offset: 20 });
    expect(second.rows.map((row) => `${row.run.variant}#${row.run.repetition}`)).toEqual([
      ...Array.from({ length: 5 }, (_, i) => `base#${20 + i}`),
      ...Array.from({ length: 15 }, (_, i) => `cand#${i}`),
    ]);
    expect(second.rows[0]?.result).toMatchObject({ n: 1, mean: 20, unusable: null });
    // Every field the results table reads: n a number (a BigInt column), the figures not sent null.
    expect(second.rows[0]).toEqual({
      run: { id: expect.any(String), repetition: 20, variant: "base" },
      result: {
        ...{ n: 1, mean: 20, sd: null, min: null, max: null, p50: null, p90: null, p95: null, p99: null, p999: null, sum: null, value: null },
        ...{ histogramScale: null, summaryNote: null, unusable: null, runValue: 20, explicit: false },
      },
    });
  });

  it("counts only the runs that have the metric", async () => {
    const size = await owner.caller.experiment.metricResults({ projectSlug, experimentSlug, metricKey: "size", limit: 100 });
    expect(size.total).toBe(2 * (PER_VARIANT - 5));
    expect(size.rows.every((row) => row.run.repetition % 5 !== 0)).toBe(true);
  });

  it("is a 404 for a metric the experiment does not have", async () => {
    const error = await expectTRPCError(owner.caller.experiment.metricResults({ projectSlug, experimentSlug, metricKey: "throughput" }), "NOT_FOUND");
    expect(error.message).toContain('"throughput"');
  });
});
