// The noise floor of an experiment's agents: from its latest A/A batch ("measure noise": the
// baseline run against itself, every job succeeded), per metric and per agent that ran it, the
// run-to-run spread of the per-run values and the minimum detectable effect (stats/mde.ts) at the
// experiment's α and 80 % power for a given number of runs per side. A batch's verdict shows it for
// the agents that ran the batch, so "no change" reads as "no change larger than ±X% here".
import type { Db } from "../db/client";
import { runFigure } from "../runs/run-figure";
import { hasFiniteFigures, storedFigures } from "../runs/finite-figures";
import type { TNoiseFloorEntry } from "../schemas/batch-runs";
import { median, sampleSd } from "../stats/descriptive";
import { minimumDetectableEffect, runsForEffect } from "../stats/mde";

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
