// Stores uploaded runs (POST /api/v1/results, and imports after conversion). All rows of one
// upload are written in one transaction; an Idempotency-Key makes retries store exactly once.
import pg from "pg";
import { timeOrderedId } from "../db/time-ordered-id";
import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { inSqlTransaction, poolClient, type SqlClient } from "../db/sql-transaction";
import { isUniqueViolation } from "../db/prisma-errors";
import { AppError, badInput, issuesSummary, type FieldIssue } from "../core/errors";
import { contradictions, repeatedMetricKeys } from "./metric-checks";
import { prepareRuns, type PreparedMetric } from "./prepare-metric";
import type { TRunMetricInput, TRunMetricToStore, TUploadResponse, TUploadToStore } from "../schemas/results";
import { inTurn } from "./ingest-turns";
import { experimentUrl } from "../http/public-origin";
import { insertRuns, storeUploadRuns, type RunContext, type RunOfRequest } from "./store-runs";
import { refuseTakenRepetitions, repeatedRepetitions, repetitionsExhausted } from "./run-numbering";
import { lockExperimentSql, readLockedExperiment, type ExperimentLock, type UploadExperiment } from "./upload-experiment";
import { forgetUploadExperiment, uploadExperimentOf } from "./upload-experiment-cache";
import { utcNow } from "../db/utc-now";

type Direction = NonNullable<TRunMetricInput["direction"]>;

type Tx = SqlClient;

export interface IngestOptions {
  projectId: string;
  projectSlug: string;
  source: "upload" | "import" | "agent" | "example";
  /** Default for runs that do not say, e.g. "jmh". */
  sourceDetail?: string;
  idempotencyKey?: string;
  /** SHA-256 of the request body, to tell a retry from a different request with the same key (read only with idempotencyKey). */
  bodySha256: string;
  /** Absolute base URL for the links in the response. */
  baseUrl: string;
  /**
   * Runs inside the transaction after the runs were stored (not for a replay): a caller's own
   * writes that must commit with them or not at all (a job marked done with its run). Throwing
   * rolls everything back. An upload given one always takes the transaction (never storeAtOnce).
   */
  afterStore?: (tx: Tx, stored: TUploadResponse) => Promise<void>;
}

/** Attempts of the transaction when concurrent uploads create the same experiment, variant or metric. */
const MAX_ATTEMPTS = 10;

export async function ingestResults(db: Db, upload: TUploadToStore, options: IngestOptions): Promise<TUploadResponse> {
  // A run holds one result per metric (a unique constraint): refuse a repeated key as bad input,
  // before it could surface as a database error.
  const repeated = repeatedMetricKeys(upload.runs, (r) => ["runs", r]);
  repeated.push(...repeatedRepetitions(upload.runs));
  if (repeated.length) throw badInput(repeated);

  // CPU work (summaries, histograms, compression) before anything is locked, with the experiment
  // (and the histogram scales its metrics use) as this process last read it, or read now in one
  // statement (upload-experiment-cache.ts).
  const now = new Date();
  const known = await uploadExperimentOf(db, options.projectId, upload.experiment, upload.runs);
  const scales = new Map(known?.metrics.flatMap((metric) => (typeof metric.histogramScale === "number" ? [[metric.key, metric.histogramScale] as const] : [])));
  const prepared = await prepareRuns(db, { projectId: options.projectId, slug: upload.experiment }, upload.runs, (r) => ["runs", r], now, scales);

  // Most uploads add runs to variants and metrics that exist: one statement stores them.
  if (known && !options.afterStore && storableAtOnce(known, upload)) {
    const stored = await inTurn(() => storeAtOnce(db, known, upload, prepared, options, now)).catch((error: unknown) => {
      // Something changed since the read (a variant renamed or deleted, say), and the statement
      // wrote nothing: the copy is forgotten, and the transaction below reads again under the
      // lock, and stores or says what is wrong.
      if (error instanceof pg.DatabaseError) {
        forgetUploadExperiment(options.projectId, upload.experiment);
        return null;
      }
      throw error;
    });
    if (stored) return stored;
  }

  // The others share the experiment's lock in a transaction; one that finds something to create
  // runs again under the exclusive lock (upload-experiment.ts).
  let lock: ExperimentLock = "share";
  for (let attempt = 1; ; attempt++) {
    try {
      // Waiting for a turn in memory, not with a pooled connection (ingest-turns.ts).
      // On the pool under Prisma, not Prisma's interactive transaction (sql-transaction.ts).
      const stored = await inTurn(() =>
        inSqlTransaction(db, async (tx) => {
          const stored = await store(tx, upload, prepared, options, now, lock);
          if (!stored.replayed) await options.afterStore?.(tx, stored.response);
          return stored;
        }),
      );
      return stored.response;
    } catch (error) {
      if (error instanceof NeedsExclusiveLock) {
        lock = "exclusive";
        continue;
      }
      if (!isUniqueViolation(error)) throw error;
      // A concurrent request with the same key committed first: answer as a retry would be answered.
      if (options.idempotencyKey && (await findIngestRequest(db, options))) return replay(poolClient(db), options);
      // A concurrent upload (e.g. parallel CI jobs with "create": true) created the same experiment,
      // variant or metric first: run again, which now finds and uses it.
      if (attempt >= MAX_ATTEMPTS) throw error;
    }
  }
}

/** Thrown inside the transaction (rolling it back) when the upload must create variants or metrics. */
class NeedsExclusiveLock extends Error {}

/**
 * Whether the experiment as read has everything the upload names, matching it (no unit or
 * direction said otherwise), and the upload leaves the numbering to the counters: its runs can go
 * in one statement (storeAtOnce). Anything else takes the transaction, which says what is wrong.
 */
function storableAtOnce(experiment: UploadExperiment, upload: TUploadToStore): boolean {
  if (!hasEverything(experiment, upload) || upload.runs.some((run) => run.repetition !== undefined)) return false;
  const metrics = new Map(experiment.metrics.map((metric) => [metric.key, metric]));
  return upload.runs.every((run) =>
    run.metrics.every((metric) => contradictions(metric, metrics.get(metric.key) as { unit: string; direction: string }, []).length === 0),
  );
}

/**
 * The upload's runs stored by one statement (store-runs.ts, storeUploadRuns) under the
 * experiment read before: the answer, or the replay of the request that took the key first.
 */
async function storeAtOnce(
  db: Db,
  experiment: UploadExperiment,
  upload: TUploadToStore,
  prepared: PreparedMetric[][],
  options: IngestOptions,
  now: Date,
): Promise<TUploadResponse> {
  const variantIds = new Map(experiment.variants.map((variant) => [variant.name, variant.id]));
  const metricIds = new Map(experiment.metrics.map((metric) => [metric.key, metric.id]));
  const ingestRequestId = timeOrderedId();
  const stored = await storeUploadRuns(
    db,
    runsToStore(upload, prepared, variantIds, (key) => metricIds.get(key) as string),
    runContext(experiment.id, options, options.idempotencyKey ? ingestRequestId : null, now),
    experiment,
    // Without a key, one row: the runs are stored whatever.
    options.idempotencyKey ? recordSql(options, ingestRequestId) : Prisma.sql`SELECT NULL::text AS "id"`,
  );
  if (!stored.recorded) return replay(poolClient(db), options);
  return answer(experiment.slug, upload, stored.runs, prepared, options, { experiment: false, variants: [], metrics: [] });
}

/** The idempotency record's INSERT, returning its id, or nothing when the key is taken (waiting for a request holding it to end). */
const recordSql = (
  options: IngestOptions,
  id: string,
) => Prisma.sql`INSERT INTO "IngestRequest" ("id", "projectId", "idempotencyKey", "bodySha256", "createdAt")
      VALUES (${id}, ${options.projectId}, ${options.idempotencyKey as string}, ${options.bodySha256}, ${utcNow})
      ON CONFLICT ("projectId", "idempotencyKey") DO NOTHING RETURNING "id"`;

function findIngestRequest(db: Db, options: IngestOptions) {
  return db.ingestRequest.findUnique({
    where: { projectId_idempotencyKey: { projectId: options.projectId, idempotencyKey: options.idempotencyKey as string } },
  });
}

async function store(
  tx: Tx,
  upload: TUploadToStore,
  prepared: PreparedMetric[][],
  options: IngestOptions,
  now: Date,
  lock: ExperimentLock,
): Promise<{ response: TUploadResponse; replayed: boolean }> {
  // The idempotency record: a concurrent request with the same key makes the INSERT wait until
  // it commits, and then finds its row. Under the shared lock, the record and the experiment's
  // lock are one statement (one round trip). Under the exclusive one, the record comes first in a
  // statement of its own, so a request waiting for it holds no lock of the experiment meanwhile
  // (which the exclusive one could be waiting for).
  const record = options.idempotencyKey ? recordSql(options, timeOrderedId()) : Prisma.sql`SELECT NULL::text AS "id" WHERE FALSE`;
  const lockSql = lockExperimentSql(options.projectId, upload.experiment, lock);
  const [first] = await tx.query<{ ingestRequestId: string | null; experimentId?: string | null }>(Prisma.sql`
    WITH record AS (${record})
    SELECT (SELECT "id" FROM record) AS "ingestRequestId" ${lock === "share" ? Prisma.sql`, (${lockSql}) AS "experimentId"` : Prisma.empty}`);
  if (options.idempotencyKey && !first?.ingestRequestId) return { response: await replay(tx, options), replayed: true };
  const ingestRequestId = first?.ingestRequestId ?? undefined;
  const experimentId = lock === "share" ? first?.experimentId : (await tx.query<{ id: string }>(lockSql))[0]?.id;

  const created = { experiment: false, variants: [] as string[], metrics: [] as string[] };
  let experiment = experimentId ? await readLockedExperiment(tx, experimentId) : null;
  if (!experiment) {
    if (!upload.create) {
      throw new AppError("NOT_FOUND", `No experiment "${upload.experiment}" in project "${options.projectSlug}". Create it first, or send "create": true.`);
    }
    if (lock === "share") throw new NeedsExclusiveLock();
    // Invisible to other transactions until commit; one creating the same slug meanwhile waits
    // on the unique index and then retries (ingestResults), finding this one.
    const [row] = await tx.query<{ id: string; slug: string; definitionVersion: number }>(Prisma.sql`
      INSERT INTO "Experiment" ("id", "projectId", "slug", "title", "status", "measuredRuns", "tags", "createdAt", "updatedAt")
      VALUES (${timeOrderedId()}, ${options.projectId}, ${upload.experiment}, ${upload.experimentTitle ?? upload.experiment}, 'active', 1, '{}', ${utcNow}, ${utcNow})
      RETURNING "id", "slug", "definitionVersion"`);
    experiment = { ...(row as { id: string; slug: string; definitionVersion: number }), variants: [], metrics: [] };
    created.experiment = true;
  }
  if (lock === "share" && upload.create && !hasEverything(experiment, upload)) throw new NeedsExclusiveLock();

  const variantIds = new Map(experiment.variants.map((v) => [v.name, v.id]));
  const metricIds = new Map(experiment.metrics.map((m) => [m.key, m]));
  const missingVariants = [...new Set(upload.runs.map((run) => run.variant))].filter((name) => !variantIds.has(name));
  const issues: FieldIssue[] = [];

  if (missingVariants.length && !upload.create) {
    throw new AppError(
      "UNPROCESSABLE",
      `Experiment "${experiment.slug}" has no variant ${missingVariants.map((n) => `"${n}"`).join(", ")} (it has ${[...variantIds.keys()].map((n) => `"${n}"`).join(", ") || "none"}). Add it, or send "create": true.`,
    );
  }
  const firstFreeVariant = nextPosition(experiment.variants);
  for (const [index, name] of missingVariants.entries()) {
    // The first variant of a brand-new experiment becomes its baseline (exactly one is required).
    const isBaseline = experiment.variants.length === 0 && index === 0;
    const id = timeOrderedId();
    await tx.query(Prisma.sql`
      INSERT INTO "Variant" ("id", "experimentId", "name", "isBaseline", "position", "createdAt")
      VALUES (${id}, ${experiment.id}, ${name}, ${isBaseline}, ${firstFreeVariant + index}, ${utcNow})`);
    variantIds.set(name, id);
    created.variants.push(name);
  }

  // A new metric is defined by the first run that gives its unit and direction; the other runs
  // of the same upload may leave them out, but must not contradict them.
  const definitions = new Map<string, TRunMetricToStore>();
  for (const metric of upload.runs.flatMap((run) => run.metrics)) {
    if (upload.create && !metricIds.has(metric.key) && metric.unit && metric.direction && !definitions.has(metric.key)) definitions.set(metric.key, metric);
  }

  upload.runs.forEach((run, r) =>
    run.metrics.forEach((metric, m) => {
      const known = metricIds.get(metric.key) ?? definitions.get(metric.key);
      const path = ["runs", r, "metrics", m];
      if (known) {
        issues.push(...contradictions(metric, { unit: known.unit as string, direction: known.direction as string }, path));
      } else if (!upload.create) {
        issues.push({
          path: [...path, "key"],
          message: `experiment "${experiment.slug}" has no metric "${metric.key}"; add it, or send "create": true with its unit and direction`,
        });
      } else {
        issues.push({
          path: [...path, metric.unit ? "direction" : "unit"],
          message: `metric "${metric.key}" is new: send its unit and direction (in at least one run) to create it`,
        });
      }
    }),
  );
  if (issues.length) throw new AppError("UNPROCESSABLE", issuesSummary(issues), { fieldIssues: issues });

  let metricPosition = nextPosition(experiment.metrics);
  for (const metric of definitions.values()) {
    const row = { id: timeOrderedId(), key: metric.key, unit: metric.unit as string, direction: metric.direction as Direction, position: metricPosition++ };
    await tx.query(Prisma.sql`
      INSERT INTO "Metric" ("id", "experimentId", "key", "unit", "direction", "aggregation", "label", "position", "createdAt")
      VALUES (${row.id}, ${experiment.id}, ${row.key}, ${row.unit}, ${row.direction}::"MetricDirection", ${metric.aggregation ?? "mean"}::"MetricAggregation",
        ${metric.label ?? ""}, ${row.position}, ${utcNow})`);
    metricIds.set(metric.key, row);
    created.metrics.push(metric.key);
  }

  // Repetitions continue each variant's numbering unless the upload gives them: taken from the
  // variants' counters in the statement that inserts the runs, so an upload holds a counter for
  // that statement and its commit only. New runs with a commit may move the experiment's change
  // points and breach its alert rules: insertRuns marks them in the same statement, so the work
  // after them is done even after a crash.
  const toNumber = upload.runs.map((run, r) => ({
    variantId: variantIds.get(run.variant) as string,
    variantName: run.variant,
    repetition: run.repetition,
    path: ["runs", r],
  }));
  await refuseTakenRepetitions(tx, toNumber);
  const inserted = await insertRuns(
    tx,
    runsToStore(upload, prepared, variantIds, (key) => (metricIds.get(key) as { id: string }).id),
    runContext(experiment.id, options, ingestRequestId, now),
  );
  return { response: answer(experiment.slug, upload, inserted, prepared, options, created), replayed: false };
}

/** The upload's runs as store-runs.ts stores them, with the ids of their variants (by name) and metrics (`metricId` of a key). */
function runsToStore(upload: TUploadToStore, prepared: PreparedMetric[][], variantIds: Map<string, string>, metricId: (key: string) => string): RunOfRequest[] {
  return upload.runs.map((run, r) => ({
    run,
    variantId: variantIds.get(run.variant) as string,
    repetition: run.repetition ?? null,
    metrics: (prepared[r] ?? []).map((metric) => ({ metricId: metricId(metric.key), prepared: metric })),
  }));
}

/** Where the upload's runs come from, for store-runs.ts. */
function runContext(experimentId: string, options: IngestOptions, ingestRequestId: string | null | undefined, now: Date): RunContext {
  return { experimentId, source: options.source, sourceDetail: options.sourceDetail ?? "", ingestRequestId, now };
}

/** The answer to an upload whose runs were stored: `inserted`, in request order (null: a run its variant had no number left for). */
function answer(
  experimentSlug: string,
  upload: TUploadToStore,
  inserted: ({ id: string; repetition: number } | null)[],
  prepared: PreparedMetric[][],
  options: IngestOptions,
  created: TUploadResponse["created"],
): TUploadResponse {
  const runs: TUploadResponse["runs"] = upload.runs.map((run, r) => {
    const row = inserted[r];
    if (!row) throw repetitionsExhausted(run.variant, ["runs", r, "repetition"]);
    return { id: row.id, variant: run.variant, repetition: row.repetition, metrics: (prepared[r] ?? []).map((m) => m.key) };
  });
  // The experiment's row is not written: its last change is its newest run's (../experiments/last-change.ts).
  return { experiment: { slug: experimentSlug, url: experimentUrl(options.baseUrl, options.projectSlug, experimentSlug) }, replayed: false, runs, created };
}

/** Whether the experiment has every variant and metric the upload names: nothing to create. */
function hasEverything(experiment: UploadExperiment, upload: TUploadToStore): boolean {
  const variants = new Set(experiment.variants.map((v) => v.name));
  const metrics = new Set(experiment.metrics.map((m) => m.key));
  return upload.runs.every((run) => variants.has(run.variant) && run.metrics.every((metric) => metrics.has(metric.key)));
}

/** Where the next variant or metric of an experiment goes: after the last one. Call with the experiment locked. */
function nextPosition(rows: { position: number }[]): number {
  return rows.reduce((highest, row) => Math.max(highest, row.position + 1), 0);
}

/** The answer to a retried request: the runs the first request stored, or 409 for a different body. */
async function replay(db: Tx, options: IngestOptions): Promise<TUploadResponse> {
  // One statement, not Prisma's nested include: that sends its relations' queries at once, which on
  // a transaction's single connection node-postgres deprecates (and pg 9 refuses). Runs of one
  // upload can share a millisecond; their time-ordered ids still ascend in creation order.
  const rows = await db.query<{ bodySha256: string; id: string | null; variant: string; repetition: number; slug: string; metrics: string[] }>(Prisma.sql`
    SELECT i."bodySha256", r."id", v."name" AS "variant", r."repetition", e."slug",
      ARRAY(SELECT m."key" FROM "RunMetricResult" x JOIN "Metric" m ON m."id" = x."metricId" WHERE x."runId" = r."id" ORDER BY x."id") AS "metrics"
    FROM "IngestRequest" i
    LEFT JOIN "Run" r ON r."ingestRequestId" = i."id"
    LEFT JOIN "Variant" v ON v."id" = r."variantId"
    LEFT JOIN "Experiment" e ON e."id" = r."experimentId"
    WHERE i."projectId" = ${options.projectId} AND i."idempotencyKey" = ${options.idempotencyKey as string}
    ORDER BY r."createdAt", r."id"`);
  const earlier = rows[0];
  if (!earlier) throw new Error(`no stored request with Idempotency-Key "${options.idempotencyKey}" to replay`);
  if (earlier.bodySha256 !== options.bodySha256) {
    throw new AppError("CONFLICT", `Idempotency-Key "${options.idempotencyKey}" was already used for a different request body. Use a new key for new results.`);
  }
  const runs = rows.filter((row) => row.id !== null);
  const slug = runs[0]?.slug ?? "";
  return {
    experiment: { slug, url: experimentUrl(options.baseUrl, options.projectSlug, slug) },
    replayed: true,
    runs: runs.map((run) => ({ id: run.id as string, variant: run.variant, repetition: run.repetition, metrics: run.metrics })),
    created: { experiment: false, variants: [], metrics: [] },
  };
}
