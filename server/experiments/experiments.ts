// Experiments with their variants and metrics: list, read, create, edit, delete.
// Every write that spans rows runs in one transaction, so bad input leaves nothing behind.
import type { Db } from "../db/client";
import { Prisma, type Experiment, type Metric, type Variant } from "../db/generated/client";
import { preparedQuery, utcTimestamp } from "../db/prepared-statements";
import { isUniqueViolation } from "../db/prisma-errors";
import { AppError } from "../core/errors";
import { slugify } from "../schemas/common";
import type { TExperimentInput } from "../schemas/experiment";
import type { RunOrigins } from "./example-notice";
import { replicateFigure } from "../runs/run-figure";
import { getProjectBySlug } from "../projects/projects";
import { lockExperiment, lockProjectForNewExperiment } from "../runs/run-numbering";
import { requireWorkloadFit } from "../workloads/workload-checks";
import { byLastChange, lastChange, lastChanges, lastRunAtSql } from "./last-change";

type Tx = Prisma.TransactionClient;
/** A row as PostgreSQL's to_json gives it. */
type JsonRow = Record<string, unknown>;

export async function listExperiments(db: Db, projectSlug: string) {
  const project = await getProjectBySlug(db, projectSlug);
  const [unsorted, changes] = await Promise.all([
    db.experiment.findMany({
      where: { projectId: project.id },
      include: {
        variants: { orderBy: { position: "asc" }, select: { name: true, isBaseline: true } },
        _count: { select: { runs: true, metrics: true } },
      },
    }),
    lastChanges(db, project.id),
  ]);
  const experiments = byLastChange(unsorted, changes);
  // Seeded example runs per experiment, so an example the user added runs to is not called example data.
  const seeded = await db.run.groupBy({ by: ["experimentId"], where: { experiment: { projectId: project.id }, source: "example" }, _count: { _all: true } });
  const exampleRuns = new Map(seeded.map((row) => [row.experimentId, row._count._all]));
  return {
    project: { slug: project.slug, name: project.name, description: project.description },
    experiments: experiments.map((experiment) => ({
      slug: experiment.slug,
      title: experiment.title,
      hypothesis: experiment.hypothesis,
      status: experiment.status,
      tags: experiment.tags,
      isExample: experiment.isExample,
      updatedAt: changes.get(experiment.id) ?? experiment.updatedAt,
      variants: experiment.variants,
      metricCount: experiment._count.metrics,
      runCount: experiment._count.runs,
      runOrigins: { example: exampleRuns.get(experiment.id) ?? 0, own: experiment._count.runs - (exampleRuns.get(experiment.id) ?? 0) },
    })),
  };
}

export async function getExperiment(db: Db, projectSlug: string, experimentSlug: string) {
  // One prepared statement on the pool (../db/prepared-statements.ts): every experiment page view
  // starts here, and Prisma's pipeline cost ~7 ms of CPU for what PostgreSQL answers in one. The
  // variants and metrics come as JSON arrays of their rows in the same statement: a page's reads
  // share one connection (../db/one-connection.ts), where each statement is a round trip the
  // next one waits for.
  type ExperimentRow = Experiment & {
    projectName: string;
    runCount: bigint;
    lastRunAt: Date | null;
    exampleRuns: bigint;
    variantRows: JsonRow[];
    metricRows: JsonRow[];
  };
  const [row] = await preparedQuery<{ [K in keyof ExperimentRow]: ExperimentRow[K] | null } & { projectName: string }>(
    db,
    Prisma.sql`
      SELECT e.*, p."name" AS "projectName",
             (SELECT count(*) FROM "Run" r WHERE r."experimentId" = e."id") AS "runCount",
             ${lastRunAtSql(`e."id"`)} AS "lastRunAt",
             CASE WHEN e."isExample" THEN (SELECT count(*) FROM "Run" r WHERE r."experimentId" = e."id" AND r."source" = 'example') ELSE 0 END AS "exampleRuns",
             -- bigint columns as text: a JSON number past 2^53 would lose digits.
             (SELECT coalesce(json_agg(to_jsonb(v) || jsonb_build_object(
                        'runCount', (SELECT count(*) FROM "Run" r WHERE r."variantId" = v."id"),
                        'nextRepetition', v."nextRepetition"::text, 'runsVersion', v."runsVersion"::text)
                      ORDER BY v."position"), '[]')
              FROM "Variant" v WHERE v."experimentId" = e."id") AS "variantRows",
             (SELECT coalesce(json_agg(m ORDER BY m."position"), '[]') FROM "Metric" m WHERE m."experimentId" = e."id") AS "metricRows"
      FROM "Project" p LEFT JOIN "Experiment" e ON e."projectId" = p."id" AND e."slug" = ${experimentSlug}
      WHERE p."slug" = ${projectSlug}`,
  );
  if (!row) throw new AppError("NOT_FOUND", `No project "${projectSlug}"`);
  if (row.id === null) throw new AppError("NOT_FOUND", `No experiment "${experimentSlug}" in project "${projectSlug}"`);
  const { projectName, runCount, lastRunAt, exampleRuns, variantRows, metricRows, ...experiment } = row as ExperimentRow;
  const variants = variantRows.map((variant): Variant & { runCount: number } => ({
    ...(variant as unknown as Variant),
    createdAt: utcTimestamp(variant.createdAt as string),
    nextRepetition: BigInt(variant.nextRepetition as string),
    runsVersion: BigInt(variant.runsVersion as string),
    runCount: variant.runCount as number,
  }));
  const metrics = metricRows.map((metric): Metric => ({ ...(metric as unknown as Metric), createdAt: utcTimestamp(metric.createdAt as string) }));
  const runs = Number(runCount);
  const example = Number(exampleRuns);
  return {
    project: { slug: projectSlug, name: projectName },
    experiment: {
      ...experiment,
      updatedAt: lastChange(experiment.updatedAt, lastRunAt),
      // summaryFigure: the summary's figure a run without a value of its own contributes.
      metrics: metrics.map((metric) => ({ ...metric, summaryFigure: replicateFigure(metric.aggregation) })),
      parameters: experiment.parameters as { name: string; value: string }[],
      // The runs themselves come a page at a time (../runs/experiment-runs.ts).
      variants,
      runCount: runs,
      /** Seeded example runs against everyone else's (server/experiments/example-notice.ts). */
      runOrigins: { example, own: runs - example } satisfies RunOrigins,
    },
  };
}

export type ExperimentDetail = Awaited<ReturnType<typeof getExperiment>>;

export async function createExperiment(db: Db, projectSlug: string, input: TExperimentInput, options: { isExample?: boolean } = {}) {
  const project = await getProjectBySlug(db, projectSlug);
  // The examples are loaded before any agent has registered; what they ask for is the agents'.
  if (!options.isExample) await requireWorkloadFit(db, project.id, input, "The experiment asks its workloads for what they cannot give");
  const explicitSlug = Boolean(input.slug);
  const baseSlug = input.slug || slugify(input.title) || "experiment";
  try {
    return await db.$transaction(async (tx) => {
      // Concurrent creations with one title would all pick the same free slug; one at a time,
      // each sees the others' slugs.
      await lockProjectForNewExperiment(tx, project.id);
      const slug = explicitSlug ? await requireFreeSlug(tx, project.id, baseSlug) : await nextFreeSlug(tx, project.id, baseSlug);
      const created = await tx.experiment.create({
        data: {
          projectId: project.id,
          slug,
          ...scalarFields(input),
          isExample: options.isExample ?? false,
          variants: { create: input.variants.map((variant, position) => variantFields(variant, position)) },
          metrics: { create: input.metrics.map((metric, position) => metricFields(metric, position)) },
        },
        select: { slug: true },
      });
      return created;
    });
  } catch (error) {
    throw slugConflict(error, baseSlug);
  }
}

export async function updateExperiment(db: Db, projectSlug: string, experimentSlug: string, input: TExperimentInput) {
  const project = await getProjectBySlug(db, projectSlug);
  await requireWorkloadFit(db, project.id, input, "The experiment asks its workloads for what they cannot give");
  const newSlug = input.slug || experimentSlug;
  try {
    return await db.$transaction(async (tx) => {
      // Locked first, so no upload adds a variant, metric or run between the read and the writes.
      const currentId = await lockExperiment(tx, project.id, experimentSlug);
      const current =
        currentId &&
        (await tx.experiment.findUnique({
          where: { id: currentId },
          include: {
            variants: { include: { _count: { select: { runs: true } } } },
            metrics: { include: { _count: { select: { results: true } } } },
          },
        }));
      if (!current) throw new AppError("NOT_FOUND", `No experiment "${experimentSlug}" in project "${projectSlug}"`);
      if (newSlug !== experimentSlug) await requireFreeSlug(tx, project.id, newSlug);

      const keptVariantIds = requireKnownIds(input.variants, current.variants, "variants");
      const keptMetricIds = requireKnownIds(input.metrics, current.metrics, "metrics");
      refuseLosingData(
        current.variants.filter((v) => !keptVariantIds.has(v.id)).map((v) => ({ label: `variant "${v.name}"`, count: v._count.runs, what: "run" })),
      );
      refuseLosingData(
        current.metrics.filter((m) => !keptMetricIds.has(m.id)).map((m) => ({ label: `metric "${m.key}"`, count: m._count.results, what: "stored result" })),
      );

      await tx.experiment.update({ where: { id: current.id }, data: { slug: newSlug, ...scalarFields(input) } });
      await tx.variant.deleteMany({ where: { experimentId: current.id, id: { notIn: [...keptVariantIds] } } });
      await tx.metric.deleteMany({ where: { experimentId: current.id, id: { notIn: [...keptMetricIds] } } });

      // Names, keys and positions are unique per experiment and checked row by row, so park the
      // kept rows on their ids and on negative positions first: a swap or a reorder then never
      // collides halfway. The baseline flag is cleared for the same reason (at most one baseline
      // is checked immediately).
      for (const [index, id] of [...keptVariantIds].entries())
        await tx.variant.update({ where: { id }, data: { name: id, isBaseline: false, position: -1 - index } });
      for (const [index, id] of [...keptMetricIds].entries()) await tx.metric.update({ where: { id }, data: { key: id, position: -1 - index } });

      for (const [position, variant] of input.variants.entries()) {
        const data = variantFields(variant, position);
        if (variant.id) await tx.variant.update({ where: { id: variant.id }, data });
        else await tx.variant.create({ data: { ...data, experimentId: current.id } });
      }
      for (const [position, metric] of input.metrics.entries()) {
        const data = metricFields(metric, position);
        if (metric.id) await tx.metric.update({ where: { id: metric.id }, data });
        else await tx.metric.create({ data: { ...data, experimentId: current.id } });
      }
      return { slug: newSlug };
    });
  } catch (error) {
    throw slugConflict(error, newSlug);
  }
}

export async function deleteExperiment(db: Db, projectSlug: string, experimentSlug: string) {
  const project = await getProjectBySlug(db, projectSlug);
  const { count } = await db.experiment.deleteMany({ where: { projectId: project.id, slug: experimentSlug } });
  if (count === 0) throw new AppError("NOT_FOUND", `No experiment "${experimentSlug}" in project "${projectSlug}"`);
}

function scalarFields(input: TExperimentInput) {
  return {
    title: input.title,
    hypothesis: input.hypothesis,
    description: input.description,
    environmentNotes: input.environmentNotes,
    status: input.status,
    parameters: input.parameters,
    warmupRuns: input.warmupRuns,
    measuredRuns: input.measuredRuns,
    alpha: input.alpha,
    tags: input.tags,
  };
}

function variantFields(variant: TExperimentInput["variants"][number], position: number) {
  return {
    name: variant.name,
    description: variant.description,
    isBaseline: variant.isBaseline,
    config: variant.config as Prisma.InputJsonObject,
    position,
  };
}

function metricFields(metric: TExperimentInput["metrics"][number], position: number) {
  return {
    key: metric.key,
    label: metric.label,
    unit: metric.unit,
    direction: metric.direction,
    aggregation: metric.aggregation,
    position,
  };
}

/** Ids sent with an edit must be rows of this experiment; anything else is a bad request. */
function requireKnownIds(items: { id?: string }[], existing: { id: string }[], path: string): Set<string> {
  const known = new Set(existing.map((row) => row.id));
  const kept = new Set<string>();
  items.forEach((item, index) => {
    if (!item.id) return;
    if (!known.has(item.id) || kept.has(item.id)) {
      throw new AppError("BAD_REQUEST", `Invalid input — ${path}.${index}.id: not part of this experiment`, {
        fieldIssues: [{ path: [path, index, "id"], message: "not part of this experiment" }],
      });
    }
    kept.add(item.id);
  });
  return kept;
}

function refuseLosingData(removals: { label: string; count: number; what: string }[]) {
  const blocked = removals.filter((removal) => removal.count > 0);
  if (blocked.length === 0) return;
  const list = blocked.map((b) => `${b.label} has ${b.count} ${b.what}${b.count === 1 ? "" : "s"}`).join("; ");
  throw new AppError("CONFLICT", `Cannot remove what has data: ${list}. Delete that data first.`);
}

async function requireFreeSlug(tx: Tx, projectId: string, slug: string): Promise<string> {
  const taken = await tx.experiment.findUnique({ where: { projectId_slug: { projectId, slug } }, select: { id: true } });
  if (taken) throw slugTaken(slug);
  return slug;
}

async function nextFreeSlug(tx: Tx, projectId: string, base: string): Promise<string> {
  // Numbered copies are cut to leave room for "-NNN" within 64 characters, and must not end the
  // cut on a hyphen ("a--2" breaks the slug format). Search by that stem, not the full base:
  // a copy of a 64-character base does not start with the base.
  const stem = base.slice(0, 60).replace(/-+$/, "");
  const taken = new Set((await tx.experiment.findMany({ where: { projectId, slug: { startsWith: stem } }, select: { slug: true } })).map((e) => e.slug));
  if (!taken.has(base)) return base;
  for (let suffix = 2; ; suffix++) {
    const candidate = `${stem}-${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}

function slugTaken(slug: string): AppError {
  return new AppError("CONFLICT", `An experiment with slug "${slug}" already exists in this project`, {
    fieldIssues: [{ path: ["slug"], message: `an experiment with slug "${slug}" already exists in this project` }],
  });
}

/** A concurrent writer can still take the slug between our check and insert. */
function slugConflict(error: unknown, slug: string): unknown {
  return isUniqueViolation(error) ? slugTaken(slug) : error;
}
