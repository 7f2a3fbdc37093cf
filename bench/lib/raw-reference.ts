// The raw-SQL reference of the load benchmark (bench/load.ts): the same kind of uploads' rows —
// each run, and each metric result with its summary, histogram and compressed samples — prepared
// beforehand by Versus's own code, then stored by the plainest client there is: one transaction per
// upload over a node-postgres pool as large as the server's (node-postgres's default, 10), as many
// uploaders at once as the load has, each transaction an idempotency row, each variant's counter
// advanced (in id order), the runs in one multi-row INSERT and their results in another. What
// Versus does on top (HTTP, parsing, validation, summaries, its query layer) is what the ratio of
// its uploads/s to these shows.
import crypto from "node:crypto";
import pg from "pg";
import { v7 as uuidv7 } from "uuid";
import { importers } from "../../server/importers";
import { importToUpload } from "../../server/importers/to-upload";
import { prepareMetric, type PreparedMetric } from "../../server/runs/prepare-metric";
import { ZResultsUpload, type TResultsUpload } from "../../server/schemas/results";
import type { ImportFormat } from "../../server/schemas/import-formats";
import type { UploadBody } from "./load-bodies";

interface PreparedUpload {
  experiment: string;
  runs: { variant: string; environment: unknown; tags: string[]; metrics: PreparedMetric[] }[];
}

/** The upload a body stands for, as the server reads it (results JSON, or a tool's output through its importer). */
function uploadOf(body: UploadBody): TResultsUpload {
  const url = new URL(body.path, "http://bench.local");
  if (url.pathname.endsWith("/results")) return ZResultsUpload.parse(JSON.parse(body.body));
  const format = url.searchParams.get("format") as ImportFormat;
  const mapped = importToUpload(importers[format](body.body), { experiment: url.searchParams.get("experiment") as string, create: true });
  return ZResultsUpload.parse(mapped);
}

async function prepare(body: UploadBody): Promise<PreparedUpload> {
  return prepareRows(uploadOf(body));
}

/** Each run's rows as Versus makes them: summaries, histograms, compressed samples. */
async function prepareRows(upload: TResultsUpload): Promise<PreparedUpload> {
  const scales = new Map<string, number>();
  const now = new Date();
  const runs = [];
  for (const [r, run] of upload.runs.entries()) {
    const metrics = [];
    for (const [m, metric] of run.metrics.entries()) metrics.push(await prepareMetric(metric, ["runs", r, "metrics", m], now, scales));
    runs.push({ variant: run.variant, environment: run.environment ?? {}, tags: run.tags ?? [], metrics });
  }
  return { experiment: upload.experiment, runs };
}

/**
 * What the reference is handed and Versus's server does for each upload on top of storing it: reading
 * the body (JSON.parse and the schema, or the importer, as uploadOf does: the server lifts large
 * sample arrays into typed arrays instead, which costs less) and preparing its rows (prepareRows),
 * CPU seconds per upload in this process. The code is warmed on as many uploads first, untimed;
 * the bodies are made beforehand.
 */
export async function preparationCpuPerUpload(makes: ((index: number) => UploadBody)[], uploads = 400): Promise<{ reading: number; preparing: number }> {
  const bodies = Array.from({ length: 2 * uploads }, (_, i) => (makes[i % makes.length] as (index: number) => UploadBody)(3_000_000 + i));
  const cpu = { reading: 0, preparing: 0 };
  for (const [i, body] of bodies.entries()) {
    const start = process.cpuUsage();
    const upload = uploadOf(body);
    const read = process.cpuUsage(start);
    await prepareRows(upload);
    const prepared = process.cpuUsage(start);
    if (i < uploads) continue;
    cpu.reading += (read.user + read.system) / 1e6;
    cpu.preparing += (prepared.user + prepared.system - read.user - read.system) / 1e6;
  }
  return { reading: cpu.reading / uploads, preparing: cpu.preparing / uploads };
}

interface Ids {
  experiments: Map<string, string>;
  variants: Map<string, string>;
  metrics: Map<string, string>;
}

async function idsOf(pool: pg.Pool, projectSlug: string, experiments: string[]): Promise<Ids> {
  const { rows } = await pool.query<{ experiment: string; experimentId: string; kind: string; name: string; id: string }>(
    `SELECT e."slug" AS experiment, e."id" AS "experimentId", 'variant' AS kind, v."name" AS name, v."id" AS id
       FROM "Experiment" e JOIN "Project" p ON p."id" = e."projectId" JOIN "Variant" v ON v."experimentId" = e."id"
       WHERE p."slug" = $1 AND e."slug" = ANY($2)
     UNION ALL
     SELECT e."slug", e."id", 'metric', m."key", m."id"
       FROM "Experiment" e JOIN "Project" p ON p."id" = e."projectId" JOIN "Metric" m ON m."experimentId" = e."id"
       WHERE p."slug" = $1 AND e."slug" = ANY($2)`,
    [projectSlug, experiments],
  );
  const ids: Ids = { experiments: new Map(), variants: new Map(), metrics: new Map() };
  for (const row of rows) {
    ids.experiments.set(row.experiment, row.experimentId);
    (row.kind === "variant" ? ids.variants : ids.metrics).set(`${row.experiment}/${row.name}`, row.id);
  }
  return ids;
}

const placeholders = (rows: number, columns: number, casts: string[] = []) =>
  Array.from({ length: rows }, (_, r) => `(${Array.from({ length: columns }, (_, c) => `$${r * columns + c + 1}${casts[c] ?? ""}`).join(", ")})`).join(", ");

async function storeOne(client: pg.PoolClient, projectId: string, upload: PreparedUpload, ids: Ids): Promise<void> {
  const experimentId = ids.experiments.get(upload.experiment) as string;
  const variantOf = (name: string) => ids.variants.get(`${upload.experiment}/${name}`) as string;
  await client.query("BEGIN");
  try {
    const ingestId = uuidv7();
    await client.query(`INSERT INTO "IngestRequest" ("id", "projectId", "idempotencyKey", "bodySha256") VALUES ($1, $2, $3, $4)`, [
      ingestId,
      projectId,
      `raw-${crypto.randomUUID()}`,
      "",
    ]);
    const counts = new Map<string, number>();
    for (const run of upload.runs) counts.set(variantOf(run.variant), (counts.get(variantOf(run.variant)) ?? 0) + 1);
    const next = new Map<string, number>();
    for (const [variantId, count] of [...counts].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const { rows } = await client.query<{ next: string }>(
        `UPDATE "Variant" SET "nextRepetition" = "nextRepetition" + $2 WHERE "id" = $1 RETURNING "nextRepetition"::text AS next`,
        [variantId, count],
      );
      next.set(variantId, Number(rows[0]?.next) - count);
    }
    const runValues: unknown[] = [];
    const resultValues: unknown[] = [];
    let results = 0;
    for (const run of upload.runs) {
      const runId = uuidv7();
      const variantId = variantOf(run.variant);
      const repetition = next.get(variantId) as number;
      next.set(variantId, repetition + 1);
      runValues.push(runId, experimentId, variantId, repetition, JSON.stringify(run.environment), run.tags, ingestId);
      for (const metric of run.metrics) {
        const r = metric.result;
        resultValues.push(
          uuidv7(),
          runId,
          ids.metrics.get(`${upload.experiment}/${metric.key}`),
          r.n.toString(),
          r.mean,
          r.sd,
          r.min,
          r.max,
          r.p50,
          r.p90,
          r.p95,
          r.p99,
        );
        resultValues.push(
          r.p999,
          r.sum,
          r.value,
          r.histogram && Buffer.from(r.histogram.buffer, r.histogram.byteOffset, r.histogram.byteLength),
          r.histogramScale,
          r.samples && Buffer.from(r.samples.buffer, r.samples.byteOffset, r.samples.byteLength),
        );
        results++;
      }
    }
    await client.query(
      `INSERT INTO "Run" ("id", "experimentId", "variantId", "repetition", "environment", "tags", "ingestRequestId", "source", "status", "startedAt", "finishedAt")
       SELECT v.*, 'upload'::"RunSource", 'succeeded'::"RunStatus", now(), now() FROM (VALUES ${placeholders(upload.runs.length, 7, ["", "", "", "::int", "::jsonb", "::text[]"])}) AS v`,
      runValues,
    );
    await client.query(
      `INSERT INTO "RunMetricResult" ("id", "runId", "metricId", "n", "mean", "sd", "min", "max", "p50", "p90", "p95", "p99", "p999", "sum", "value", "histogram", "histogramScale", "samples")
       VALUES ${placeholders(results, 18, ["", "", "", "::bigint", "::float8", "::float8", "::float8", "::float8", "::float8", "::float8", "::float8", "::float8", "::float8", "::float8", "::float8", "::bytea", "::float8", "::bytea"])}`,
      resultValues,
    );
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK");
    throw error;
  }
}

/**
 * Stores uploads like `make`'s (cycling through `distinct` of them, prepared first) from
 * `uploaders` loops at once for `seconds`; uploads stored per second. The experiments must exist
 * with the variants and metrics the uploads name (the load's, after it ran).
 */
export async function rawUploadsPerSecond(options: {
  databaseUrl: string;
  projectSlug: string;
  makes: ((index: number) => UploadBody)[];
  uploaders: number;
  seconds: number;
  distinct?: number;
  /** PostgreSQL's CPU seconds so far, read around the timed part. */
  postgresCpuSeconds: () => number;
  /** Other work the timed part runs beside, started with it and given its length (the load's readers, say). */
  beside?: (seconds: number) => Promise<unknown>;
}): Promise<{ uploadsPerSecond: number; uploads: number; cpuPerUpload: { client: number; postgres: number } }> {
  const distinct = options.distinct ?? 100;
  const prepared: PreparedUpload[] = [];
  for (let i = 0; i < distinct; i++) prepared.push(await prepare((options.makes[i % options.makes.length] as (index: number) => UploadBody)(2_000_000 + i)));
  const pool = new pg.Pool({ connectionString: options.databaseUrl });
  // The benchmark stops PostgreSQL at the end; an idle connection it ends is no failure.
  pool.on("error", () => undefined);
  try {
    const project = await pool.query<{ id: string }>(`SELECT "id" FROM "Project" WHERE "slug" = $1`, [options.projectSlug]);
    const projectId = project.rows[0]?.id as string;
    const ids = await idsOf(pool, options.projectSlug, [...new Set(prepared.map((upload) => upload.experiment))]);
    let next = 0;
    let stored = 0;
    const cpuBefore = { client: process.cpuUsage(), postgres: options.postgresCpuSeconds() };
    const started = performance.now();
    const until = started + options.seconds * 1000;
    await Promise.all([
      options.beside?.(options.seconds),
      ...Array.from({ length: options.uploaders }, async () => {
        while (performance.now() < until) {
          const upload = prepared[next++ % prepared.length] as PreparedUpload;
          const client = await pool.connect();
          try {
            await storeOne(client, projectId, upload, ids);
          } finally {
            client.release();
          }
          stored++;
        }
      }),
    ]);
    const elapsed = (performance.now() - started) / 1000;
    const client = process.cpuUsage(cpuBefore.client);
    const cpuPerUpload = { client: (client.user + client.system) / 1e6 / stored, postgres: (options.postgresCpuSeconds() - cpuBefore.postgres) / stored };
    return { uploadsPerSecond: stored / elapsed, uploads: stored, cpuPerUpload };
  } finally {
    await pool.end();
  }
}
