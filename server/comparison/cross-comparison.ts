// Compares two sets of runs picked from any experiments of a project — two experiments, two
// variants, or two commits of one experiment (before/after a deploy) — "the same way" as an
// experiment's own comparison: each run is reduced to one replicate by the metric's aggregation
// (comparison.ts's rule), and the two sets go through the same engine as a baseline ("before")
// and one candidate ("after"). Metrics are matched by key; a metric whose unit, direction or
// aggregation differs between the two sides is reported as not comparable, with the reason.
// Two picked sets often differ in size (a commit's 3 runs against another's 9), so the minimum
// number of runs is the exact one for the two sizes, as the CI gate's: the smallest p the U test
// can give them must be ≤ α. The experiment's per-variant rule ("needs ≥ 4 runs per variant")
// would call 3 against 9 undecidable beside a p of 0.009.
import type { Db } from "../db/client";
import type { MetricAggregation } from "../db/generated/enums";
import { AppError } from "../core/errors";
import { decodeSamples } from "../runs/sample-codec";
import type { TCrossComparison, TRunSetRef } from "../schemas/cross-comparison";
import { compareMetric, type VariantData } from "../stats/compare";
import { variantData } from "./comparison";
import { hasFiniteFigures, storedFigures } from "../runs/finite-figures";
import { getProjectBySlug } from "../projects/projects";

type Side = "before" | "after";
type Entry = TCrossComparison["metrics"][number];

interface MetricDef {
  id: string;
  key: string;
  label: string;
  unit: string;
  direction: "lower_is_better" | "higher_is_better";
  aggregation: MetricAggregation;
}

async function loadRunSet(db: Db, projectId: string, ref: TRunSetRef, side: Side) {
  const experiment = await db.experiment.findUnique({
    where: { projectId_slug: { projectId, slug: ref.experimentSlug } },
    include: { variants: { select: { id: true, name: true }, orderBy: { position: "asc" } }, metrics: { orderBy: { position: "asc" } } },
  });
  if (!experiment) {
    throw new AppError("NOT_FOUND", `No experiment "${ref.experimentSlug}" in this project (${side})`, {
      fieldIssues: [{ path: [side, "experimentSlug"], message: "no such experiment in this project" }],
    });
  }
  const variant = ref.variant === undefined ? undefined : experiment.variants.find((v) => v.name === ref.variant);
  if (ref.variant !== undefined && !variant) {
    throw new AppError(
      "UNPROCESSABLE",
      `No variant "${ref.variant}" in experiment "${experiment.slug}"; its variants are ${experiment.variants.map((v) => `"${v.name}"`).join(", ")}`,
      {
        fieldIssues: [{ path: [side, "variant"], message: `not a variant of ${experiment.slug}` }],
      },
    );
  }
  const runWhere = {
    experimentId: experiment.id,
    status: "succeeded" as const,
    ...(variant ? { variantId: variant.id } : {}),
    // A prefix matches too, so a short commit id pasted from a deploy log works.
    ...(ref.gitCommit ? { gitCommit: { startsWith: ref.gitCommit } } : {}),
  };
  const runIds = (await db.run.findMany({ where: runWhere, select: { id: true } })).map((r) => r.id);
  const stored = await db.runMetricResult.findMany({
    where: { runId: { in: runIds } },
    // The same order as an experiment's comparison: oldest run first, ties broken by id.
    orderBy: [{ run: { createdAt: "asc" } }, { runId: "asc" }],
    select: { metricId: true, runId: true, ...storedFigures, histogram: true },
  });
  // Left out as the experiment's own comparison leaves them out: a figure that is not finite.
  const results = stored.filter(hasFiniteFigures);
  return {
    side,
    experiment,
    metrics: experiment.metrics as MetricDef[],
    summary: {
      experiment: { slug: experiment.slug, title: experiment.title },
      variant: variant?.name ?? null,
      gitCommit: ref.gitCommit ?? null,
      runs: runIds.length,
    },
    runIds,
    results,
  };
}

type RunSet = Awaited<ReturnType<typeof loadRunSet>>;

export async function compareRunSets(
  db: Db,
  where: { projectSlug: string },
  before: TRunSetRef,
  after: TRunSetRef,
  metricKeys?: string[],
): Promise<TCrossComparison> {
  const project = await getProjectBySlug(db, where.projectSlug);
  const sets = { before: await loadRunSet(db, project.id, before, "before"), after: await loadRunSet(db, project.id, after, "after") };
  const alpha = Math.min(sets.before.experiment.alpha, sets.after.experiment.alpha);
  const notes: string[] = [];
  if (sets.before.experiment.alpha !== sets.after.experiment.alpha)
    notes.push(`the experiments use different significance levels; the stricter α = ${alpha} applies`);
  const afterIds = new Set(sets.after.runIds);
  const shared = sets.before.runIds.filter((id) => afterIds.has(id)).length;
  if (shared > 0) notes.push(`${shared} run${shared === 1 ? " is" : "s are"} in both sets: pick a variant or a commit on each side to compare different runs`);

  const keys = metricKeys ?? [...new Set([...sets.before.metrics, ...sets.after.metrics].map((m) => m.key))];
  const metrics: Entry[] = [];
  for (const key of keys) metrics.push(await compareOneMetric(db, key, sets.before, sets.after, alpha));
  return { before: sets.before.summary, after: sets.after.summary, alpha, metrics, notes };
}

function describeSet(set: RunSet): string {
  const parts = [set.experiment.slug, set.summary.variant, set.summary.gitCommit && `commit ${set.summary.gitCommit}`].filter(Boolean);
  return `${set.side} (${parts.join(", ")})`;
}

/** Why a metric cannot be compared across the two sets, or null when it can. */
function mismatch(key: string, b: MetricDef | undefined, a: MetricDef | undefined, sets: { before: RunSet; after: RunSet }): string | null {
  if (!b || !a) return `experiment "${(b ? sets.after : sets.before).experiment.slug}" has no metric "${key}"`;
  if (b.unit !== a.unit) return `not comparable: the unit is ${b.unit} before and ${a.unit} after`;
  if (b.direction !== a.direction) return `not comparable: lower is better on one side and higher is better on the other`;
  if (b.aggregation !== a.aggregation) return `not comparable: each run is summarised by its ${b.aggregation} before and its ${a.aggregation} after`;
  return null;
}

async function compareOneMetric(db: Db, key: string, before: RunSet, after: RunSet, alpha: number): Promise<Entry> {
  const b = before.metrics.find((m) => m.key === key);
  const a = after.metrics.find((m) => m.key === key);
  const def = (b ?? a) as MetricDef | undefined;
  const described = {
    key,
    label: def?.label ?? "",
    unit: def?.unit ?? "",
    direction: def?.direction ?? "lower_is_better",
    aggregation: def?.aggregation ?? "mean",
  };
  if (!def) return { ...described, comparison: null, reason: `neither experiment has a metric "${key}"` };
  const reason = mismatch(key, b, a, { before, after });
  if (reason || !b || !a) return { ...described, comparison: null, reason };

  const beforeRows = before.results.filter((r) => r.metricId === b.id);
  const afterRows = after.results.filter((r) => r.metricId === a.id);
  if (beforeRows.length === 0 || afterRows.length === 0) {
    return { ...described, comparison: null, reason: `${describeSet(beforeRows.length === 0 ? before : after)} has no runs with this metric` };
  }
  const variants: VariantData[] = [variantData("before", true, beforeRows, b.aggregation), variantData("after", false, afterRows, a.aggregation)];
  // One run on each side: the engine compares within-run samples (weak evidence), as it does
  // for an experiment with one run per variant.
  if (beforeRows.length === 1 && afterRows.length === 1) {
    await attachSamples(db, variants[0] as VariantData, b.id, beforeRows[0]!.runId);
    await attachSamples(db, variants[1] as VariantData, a.id, afterRows[0]!.runId);
  }
  return {
    ...described,
    comparison: compareMetric({ key, unit: b.unit, direction: b.direction }, variants, { alpha, minimumRuns: "attainable" }),
    reason: null,
  };
}

async function attachSamples(db: Db, variant: VariantData, metricId: string, runId: string) {
  const row = await db.runMetricResult.findUnique({ where: { runId_metricId: { runId, metricId } }, select: { samples: true } });
  if (row?.samples) variant.withinRunSamples = [Array.from(decodeSamples(row.samples))];
}
