// The one way runs are written: an upload's or an import's runs (inside the upload's transaction,
// after its experiment, variants, metrics and repetitions are settled) and an agent's run (in the
// single statement of its complete, store-job-run.ts) are the same rows — Run, RunMetricResult,
// RunTimeSeries — built by runRows and inserted by the CTEs of insertRunsSql, every run, result
// and series of the request in one statement whatever their number. Everything before it
// (checking metrics, summaries, histograms, compressed samples) is prepare-metric.ts.
import { v7 as uuidv7 } from "uuid";
import type { Prisma as PrismaTypes } from "../db/client";
import { Prisma } from "../db/generated/client";
import { utcNow } from "../db/utc-now";
import type { TRunInput } from "../schemas/results";
import type { PreparedMetric } from "./prepare-metric";

export type RunToStore = Pick<
  TRunInput,
  | "status"
  | "startedAt"
  | "finishedAt"
  | "environment"
  | "gitCommit"
  | "gitBranch"
  | "gitCommitMessage"
  | "gitCommitTime"
  | "tags"
  | "sourceDetail"
  | "warnings"
>;

export interface RunOfRequest {
  run: RunToStore;
  variantId: string;
  /** Known before the statement (uploads); null: the statement's `numbered` CTE gives it (agent runs). */
  repetition: number | null;
  metrics: { metricId: string; prepared: PreparedMetric }[];
}

export interface RunContext {
  experimentId: string;
  source: "upload" | "import" | "agent" | "example";
  /** For runs that do not say where their numbers came from. */
  sourceDetail: string;
  ingestRequestId?: string | null;
  /** A run without startedAt or finishedAt finished now. */
  now: Date;
}

/** The rows of these runs, with their ids (time-ordered, so runs of one statement sort in request order). */
export function runRows(runs: RunOfRequest[], context: RunContext) {
  const iso = (date: Date | null) => (date ? date.toISOString() : null);
  const runRows = [];
  const results = [];
  const series = [];
  for (const { run, variantId, repetition, metrics } of runs) {
    const id = uuidv7();
    const startedAt = run.startedAt ? new Date(run.startedAt) : null;
    const finishedAt = run.finishedAt ? new Date(run.finishedAt) : startedAt ? null : context.now;
    runRows.push({
      // The columns' own defaults where a caller built a run without the schema's (status, environment, tags).
      id,
      variantId,
      repetition,
      status: run.status ?? "succeeded",
      source: context.source,
      sourceDetail: run.sourceDetail ?? context.sourceDetail,
      startedAt: iso(startedAt),
      finishedAt: iso(finishedAt),
      environment: run.environment ?? {},
      gitCommit: run.gitCommit ?? null,
      gitBranch: run.gitBranch ?? null,
      gitCommitMessage: run.gitCommitMessage ?? null,
      gitCommitTime: iso(run.gitCommitTime ? new Date(run.gitCommitTime) : null),
      tags: run.tags ?? [],
      warnings: run.warnings ?? [],
      ingestRequestId: context.ingestRequestId ?? null,
    });
    for (const { metricId, prepared } of metrics) {
      results.push({
        id: uuidv7(),
        runId: id,
        metricId,
        ...prepared.result,
        n: prepared.result.n.toString(),
        histogram: prepared.result.histogram && Buffer.from(prepared.result.histogram).toString("base64"),
        samples: prepared.result.samples && Buffer.from(prepared.result.samples).toString("base64"),
      });
      if (prepared.timeSeries) {
        series.push({
          id: uuidv7(),
          runId: id,
          metricId,
          startedAt: prepared.timeSeries.startedAt.toISOString(),
          offsetsMs: prepared.timeSeries.offsetsMs,
          values: prepared.timeSeries.values,
        });
      }
    }
  }
  return { experimentId: context.experimentId, runs: runRows, results, series };
}

export type RunRows = ReturnType<typeof runRows>;

/**
 * The CTEs `run`, `results` and `series` that insert the rows (`run` returns each stored run's id
 * and repetition). With `numbered`, the name of a CTE returning "nextRepetition" from the
 * variant's counter (run-numbering.ts), runs without a repetition take the one it handed out, and
 * nothing is inserted when it returned no row.
 */
export function insertRunsSql(rows: RunRows, options: { numbered?: string } = {}): PrismaTypes.Sql {
  const numbered = options.numbered ? Prisma.raw(`"${options.numbered}"`) : null;
  const repetition = numbered ? Prisma.sql`COALESCE(r."repetition", ${numbered}."nextRepetition" - 1)` : Prisma.sql`r."repetition"`;
  return Prisma.sql`
    run AS (
      INSERT INTO "Run" ("id", "experimentId", "variantId", "status", "source", "sourceDetail", "repetition", "startedAt", "finishedAt", "environment", "gitCommit", "gitBranch", "gitCommitMessage", "gitCommitTime", "tags", "warnings", "ingestRequestId", "createdAt")
      SELECT r."id", ${rows.experimentId}, r."variantId", r."status"::"RunStatus", r."source"::"RunSource", r."sourceDetail", ${repetition}, r."startedAt", r."finishedAt",
        r."environment", r."gitCommit", r."gitBranch", r."gitCommitMessage", r."gitCommitTime", r."tags", r."warnings", r."ingestRequestId", ${utcNow}
      FROM json_to_recordset(${JSON.stringify(rows.runs)}::json) AS r(
        "id" text, "variantId" text, "repetition" int, "status" text, "source" text, "sourceDetail" text, "startedAt" timestamp, "finishedAt" timestamp,
        "environment" jsonb, "gitCommit" text, "gitBranch" text, "gitCommitMessage" text, "gitCommitTime" timestamp, "tags" text[], "warnings" text[], "ingestRequestId" text)
      ${numbered ? Prisma.sql`CROSS JOIN ${numbered}` : Prisma.empty}
      RETURNING "id", "repetition"
    ),
    results AS (
      INSERT INTO "RunMetricResult" ("id", "runId", "metricId", "n", "mean", "sd", "min", "max", "p50", "p90", "p95", "p99", "p999", "sum", "value", "histogram", "histogramScale", "samples", "createdAt")
      SELECT r."id", run."id", r."metricId", r."n", r."mean", r."sd", r."min", r."max", r."p50", r."p90", r."p95", r."p99", r."p999", r."sum", r."value",
        decode(r."histogram", 'base64'), r."histogramScale", decode(r."samples", 'base64'), ${utcNow}
      FROM json_to_recordset(${JSON.stringify(rows.results)}::json) AS r(
        "id" text, "runId" text, "metricId" text, "n" bigint, "mean" float8, "sd" float8, "min" float8, "max" float8, "p50" float8, "p90" float8,
        "p95" float8, "p99" float8, "p999" float8, "sum" float8, "value" float8, "histogram" text, "histogramScale" float8, "samples" text)
      JOIN run ON run."id" = r."runId"
    ),
    series AS (
      INSERT INTO "RunTimeSeries" ("id", "runId", "metricId", "startedAt", "offsetsMs", "values", "createdAt")
      SELECT s."id", run."id", s."metricId", s."startedAt", s."offsetsMs", s."values", ${utcNow}
      FROM json_to_recordset(${JSON.stringify(rows.series)}::json) AS s("id" text, "runId" text, "metricId" text, "startedAt" timestamp, "offsetsMs" float8[], "values" float8[])
      JOIN run ON run."id" = s."runId"
    )`;
}

/** Inserts the rows in one statement (inside the caller's transaction): each run's id and repetition, in request order. */
export async function insertRuns(tx: PrismaTypes.TransactionClient, rows: RunRows): Promise<{ id: string; repetition: number }[]> {
  if (rows.runs.length === 0) return [];
  const stored = await tx.$queryRaw<{ id: string; repetition: number }[]>(Prisma.sql`WITH ${insertRunsSql(rows)} SELECT "id", "repetition" FROM run`);
  const byId = new Map(stored.map((row) => [row.id, row]));
  return rows.runs.map((run) => byId.get(run.id) as { id: string; repetition: number });
}
