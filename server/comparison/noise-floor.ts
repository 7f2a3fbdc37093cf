// The noise floor of an experiment's agents: from its latest A/A batch ("measure noise": the
// baseline run against itself, every job succeeded), per metric and per agent that ran it, the
// run-to-run spread of the per-run values and the minimum detectable effect (stats/mde.ts) at the
// experiment's α and 80 % power for a given number of runs per side. A batch's verdict shows it for
// the agents that ran the batch, so "no change" reads as "no change larger than ±X% here"; so does
// every agent-run comparison (withNoiseFloor: the experiment page, the report, REST).
import type { Db } from "../db/client";
import { AppError } from "../core/errors";
import { runFigure } from "../runs/run-figure";
import { hasFiniteFigures, storedFigures } from "../runs/finite-figures";
import type { TNoiseFloorEntry } from "../schemas/batch-runs";
import type { TCandidateNoiseFloor, TComparison } from "../schemas/comparison";
import { median, sampleSd } from "../stats/descriptive";
import { minimumDetectableEffect, minimumDetectableEffectBetween, runsForEffect } from "../stats/mde";

export interface NoiseFloor {
  batchId: string;
  measuredAt: Date;
  alpha: number;
  /** Per metric and agent: the A/A batch's per-run values. */
  samples: { metricKey: string; unit: string; agentId: string; agentName: string; values: number[] }[];
}

/** The latest A/A batch of the experiment all of whose jobs succeeded, read for noise; null when there is none. */
export async function latestNoiseFloor(db: Db, experimentId: string): Promise<NoiseFloor | null> {
  const batch = await db.jobBatch.findFirst({
    where: { experimentId, noise: true, cancelledAt: null, jobs: { every: { status: "succeeded" } } },
    orderBy: { createdAt: "desc" },
    select: { id: true, createdAt: true, experiment: { select: { alpha: true } } },
  });
  return batch ? noiseOfBatch(db, experimentId, batch.id, batch.createdAt, batch.experiment.alpha) : null;
}

/**
 * The experiment page's and the Run dialog's view of the stored floor: each metric and agent of the
 * latest A/A batch, its MDE at the experiment's run count and the runs a side `minChangePercent`
 * needs; null before any A/A batch.
 */
export async function experimentNoiseFloor(db: Db, projectId: string, experimentSlug: string, minChangePercent: number) {
  const experiment = await db.experiment.findUnique({
    where: { projectId_slug: { projectId, slug: experimentSlug } },
    select: { id: true, measuredRuns: true },
  });
  if (!experiment) throw new AppError("NOT_FOUND", `No experiment "${experimentSlug}" in this project`);
  const floor = await latestNoiseFloor(db, experiment.id);
  if (!floor) return null;
  const entries = noiseEntries(floor, { runs: experiment.measuredRuns, minChangePercent });
  // The suggestion: enough runs for every metric on every agent measured (the neediest decides).
  const neediest = entries.reduce<(typeof entries)[number] | null>(
    (most, entry) => (entry.runsForMinChange !== null && (most === null || entry.runsForMinChange > (most.runsForMinChange ?? 0)) ? entry : most),
    null,
  );
  return {
    batchId: floor.batchId,
    measuredAt: floor.measuredAt,
    runs: experiment.measuredRuns,
    minChangePercent,
    entries,
    suggestedRuns: neediest ? { runs: neediest.runsForMinChange as number, metric: neediest.metric, agent: neediest.agent } : null,
  };
}

export async function noiseOfBatch(db: Db, experimentId: string, batchId: string, measuredAt: Date, alpha: number): Promise<NoiseFloor> {
  const [metrics, rows] = await Promise.all([
    db.metric.findMany({ where: { experimentId }, orderBy: { position: "asc" }, select: { id: true, key: true, unit: true, aggregation: true } }),
    db.runMetricResult.findMany({
      where: { run: { status: "succeeded", job: { batchId } } },
      orderBy: [{ run: { createdAt: "asc" } }, { runId: "asc" }],
      select: { metricId: true, ...storedFigures, run: { select: { job: { select: { agent: { select: { id: true, name: true } } } } } } },
    }),
  ]);
  const samples: NoiseFloor["samples"] = [];
  for (const metric of metrics) {
    const byAgent = new Map<string, { name: string; values: number[] }>();
    for (const row of rows.filter((r) => r.metricId === metric.id && hasFiniteFigures(r))) {
      const agent = row.run.job?.agent;
      if (!agent) continue;
      const entry = byAgent.get(agent.id) ?? { name: agent.name, values: [] };
      entry.values.push(runFigure(row, metric.aggregation));
      byAgent.set(agent.id, entry);
    }
    for (const [agentId, { name, values }] of byAgent) samples.push({ metricKey: metric.key, unit: metric.unit, agentId, agentName: name, values });
  }
  return { batchId, measuredAt, alpha, samples };
}

/**
 * The floor for comparisons of `runs` runs a side (the A/A batch's own sides: half its runs, when
 * left out), on `agentIds` (all when left out), and the runs a side `minChangePercent` needs.
 */
export function noiseEntries(floor: NoiseFloor, options: { runs?: number; agentIds?: string[]; minChangePercent: number }): TNoiseFloorEntry[] {
  return floor.samples
    .filter((sample) => !options.agentIds || options.agentIds.includes(sample.agentId))
    .map((sample) => {
      const middle = median(sample.values);
      const sd = sample.values.length > 1 ? sampleSd(sample.values) : null;
      const runs = options.runs ?? Math.floor(sample.values.length / 2);
      const mde = sd === null ? null : minimumDetectableEffect(sd, runs, floor.alpha);
      const percent = (x: number | null) => (x === null || middle === 0 ? null : (x / Math.abs(middle)) * 100);
      return {
        metric: sample.metricKey,
        unit: sample.unit,
        agent: sample.agentName,
        noiseRuns: sample.values.length,
        median: middle,
        sd,
        spreadPercent: percent(sd),
        runs,
        mdePercent: percent(mde),
        // What the verdict's minimum change needs here: with fewer runs a change that large can pass unseen.
        runsForMinChange:
          sd === null || middle === 0 || options.minChangePercent <= 0
            ? null
            : runsForEffect(sd, (options.minChangePercent / 100) * Math.abs(middle), floor.alpha),
        measuredAt: floor.measuredAt.toISOString(),
        batchId: floor.batchId,
      };
    });
}

/** Who ran the compared runs of each variant: agent ids by variant id, and whether some runs were uploaded. */
export interface RunSources {
  agents: Map<string, Set<string>>;
  uploaded: Set<string>;
}

async function runSources(db: Db, experimentId: string, batchId: string | undefined): Promise<RunSources> {
  // A job's agent is the one that ran it to success (the run's producer). The compared runs only
  // (compared-runs.ts): an A/A batch's runs are not, unless it is the batch compared.
  const rows = await db.$queryRaw<{ variantId: string; agentId: string | null }[]>`
    SELECT r."variantId", j."agentId" FROM "Run" r LEFT JOIN "Job" j ON j."runId" = r."id" LEFT JOIN "JobBatch" b ON b."id" = j."batchId"
    WHERE r."experimentId" = ${experimentId} AND r."status" = 'succeeded'
      AND (${batchId ?? null}::text IS NULL AND b."noise" IS NOT TRUE OR j."batchId" = ${batchId ?? null}::text)
    GROUP BY 1, 2`;
  const sources: RunSources = { agents: new Map(), uploaded: new Set() };
  for (const row of rows) {
    if (!row.agentId) sources.uploaded.add(row.variantId);
    else sources.agents.set(row.variantId, (sources.agents.get(row.variantId) ?? new Set()).add(row.agentId));
  }
  return sources;
}

/**
 * The comparison with each candidate's noise floor (metric.noiseFloor) when the experiment has an
 * A/A batch and some compared runs ran on agents: per candidate, the largest MDE among the agents
 * that ran its or the baseline's runs, at the two sides' run counts. `comparison` is not changed
 * (it may be the cache's).
 */
export async function withNoiseFloor(
  db: Db,
  experiment: { id: string; variants: { id: string; name: string }[] },
  comparison: TComparison,
  only: { batchId?: string } = {},
): Promise<TComparison> {
  const floor = await latestNoiseFloor(db, experiment.id);
  if (!floor) return comparison;
  const sources = await runSources(db, experiment.id, only.batchId);
  if (sources.agents.size === 0) return comparison;
  const idOf = new Map(experiment.variants.map((variant) => [variant.name, variant.id]));
  const measuredAgents = new Map(floor.samples.map((sample) => [sample.agentId, sample.agentName]));
  const unmeasuredIds = [...new Set([...sources.agents.values()].flatMap((ids) => [...ids]))].filter((id) => !measuredAgents.has(id));
  const names = new Map(
    (await db.agent.findMany({ where: { id: { in: unmeasuredIds } }, select: { id: true, name: true } })).map((agent) => [agent.id, agent.name]),
  );
  return {
    ...comparison,
    metrics: comparison.metrics.map((metric) => {
      const result = metric.comparison;
      if (!result || result.comparisons.length === 0) return metric;
      const noiseFloor = result.comparisons.flatMap((candidate): TCandidateNoiseFloor[] => {
        const sides = [candidate.baseline, candidate.candidate].map((name) => idOf.get(name) ?? "");
        const agentIds = [...new Set(sides.flatMap((id) => [...(sources.agents.get(id) ?? [])]))];
        if (agentIds.length === 0) return [];
        const samples = floor.samples.filter((sample) => sample.metricKey === metric.key && agentIds.includes(sample.agentId) && sample.values.length > 1);
        if (samples.length === 0) return [];
        const n = (name: string) => result.variants.find((v) => v.variant === name)?.n ?? 0;
        const runs = { baseline: n(candidate.baseline), candidate: n(candidate.candidate) };
        const mdes = samples.map((sample) => {
          const middle = median(sample.values);
          const mde = minimumDetectableEffectBetween(sampleSd(sample.values), runs.baseline, runs.candidate, floor.alpha);
          return mde === null || middle === 0 ? null : (mde / Math.abs(middle)) * 100;
        });
        const mdePercent = mdes.some((mde) => mde === null) ? null : Math.max(...(mdes as number[]));
        const change = candidate.change.percent;
        return [
          {
            candidate: candidate.candidate,
            mdePercent,
            runs,
            agents: samples.map((sample) => sample.agentName),
            unmeasured: [
              ...agentIds.filter((id) => !samples.some((sample) => sample.agentId === id)).map((id) => measuredAgents.get(id) ?? names.get(id) ?? id),
              ...(sides.some((id) => sources.uploaded.has(id)) ? ["uploads"] : []),
            ],
            belowFloor: candidate.verdict === "no_change" && change !== null && mdePercent !== null && Math.abs(change) < mdePercent,
            measuredAt: floor.measuredAt.toISOString(),
            batchId: floor.batchId,
          },
        ];
      });
      return noiseFloor.length ? { ...metric, noiseFloor } : metric;
    }),
  };
}
