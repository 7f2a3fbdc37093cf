// What a request that was half written would leave behind, as queries over the whole database:
// each names rows that break a rule every complete write keeps (prisma/schema.prisma). After a
// fuzz run (thousands of strange requests, some refused part-way), every query must find nothing.
// Rules the database enforces itself (a result's n ≥ 1, a time series' lengths, a leased job's
// lease: CHECK constraints in server/db/sql-only-objects.ts) need no query here.
import type { Db } from "~/server/db/client";

/** A rule, and the query for the ids of rows that break it. */
const rules: { rule: string; sql: string }[] = [
  {
    rule: "every run has a result for at least one metric (an upload stores a run and its metrics together)",
    sql: `SELECT r."id" FROM "Run" r WHERE NOT EXISTS (SELECT 1 FROM "RunMetricResult" m WHERE m."runId" = r."id")`,
  },
  {
    rule: "a run's results and time series are for metrics of its own experiment",
    sql: `SELECT m."id" FROM "RunMetricResult" m JOIN "Run" r ON r."id" = m."runId" JOIN "Metric" k ON k."id" = m."metricId" WHERE k."experimentId" <> r."experimentId"
          UNION ALL SELECT t."id" FROM "RunTimeSeries" t JOIN "Run" r ON r."id" = t."runId" JOIN "Metric" k ON k."id" = t."metricId" WHERE k."experimentId" <> r."experimentId"`,
  },
  {
    rule: "every stored figure is a finite number",
    sql: `SELECT "id" FROM "RunMetricResult" WHERE "mean" IN ('NaN', 'Infinity', '-Infinity')
          OR EXISTS (SELECT 1 FROM unnest(ARRAY["sd", "min", "max", "p50", "p90", "p95", "p99", "p999", "sum", "histogramScale"]) v WHERE v IN ('NaN', 'Infinity', '-Infinity'))`,
  },
  {
    rule: "an idempotency record has the runs its request stored (they are written in one transaction)",
    sql: `SELECT i."id" FROM "IngestRequest" i WHERE NOT EXISTS (SELECT 1 FROM "Run" r WHERE r."ingestRequestId" = i."id")`,
  },
  {
    rule: "an experiment has variants and metrics (whatever creates it creates them with it)",
    sql: `SELECT e."id" FROM "Experiment" e WHERE NOT EXISTS (SELECT 1 FROM "Variant" v WHERE v."experimentId" = e."id") OR NOT EXISTS (SELECT 1 FROM "Metric" k WHERE k."experimentId" = e."id")`,
  },
  {
    rule: "a succeeded measured job has its run, and a job with a run has succeeded",
    sql: `SELECT "id" FROM "Job" WHERE ("status" = 'succeeded' AND NOT "warmup" AND "runId" IS NULL) OR ("runId" IS NOT NULL AND "status" <> 'succeeded')`,
  },
  {
    rule: "a job's run is a run of the job's variant",
    sql: `SELECT j."id" FROM "Job" j JOIN "Run" r ON r."id" = j."runId" WHERE r."variantId" <> j."variantId"`,
  },
  {
    rule: "no run has a repetition its variant's counter has not handed out yet",
    sql: `SELECT r."id" FROM "Run" r JOIN "Variant" v ON v."id" = r."variantId" WHERE r."repetition" >= v."nextRepetition"`,
  },
];

/** Every broken rule, with up to three of the offending ids; empty when the database is whole. */
export async function partialWrites(db: Pick<Db, "$queryRawUnsafe">): Promise<string[]> {
  const problems: string[] = [];
  for (const { rule, sql } of rules) {
    const rows = await db.$queryRawUnsafe<{ id: string }[]>(sql);
    if (rows.length > 0)
      problems.push(
        `${rule}: broken by ${rows.length} row(s), e.g. ${rows
          .slice(0, 3)
          .map((row) => row.id)
          .join(", ")}`,
      );
  }
  return problems;
}

export const partialWriteRules = rules.map(({ rule }) => rule);
