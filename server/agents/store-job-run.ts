// The run of a job, stored: the one path a lone job's complete, a group's last shard and a lost
// shard carrying its group's partial run (./lost-shards.ts) share. The run gets the generator
// verdict (server/runs/generator-limits.ts), its metrics are prepared against the experiment's
// earlier runs (summaries, histograms, compressed samples), and storeJobRun writes it with the
// job's end in one statement.
import type { Db } from "../db/client";
import { withGeneratorVerdict } from "../runs/generator-limits";
import { prepareRuns } from "../runs/prepare-metric";
import { storeJobRun, type JobToStore } from "../runs/store-runs";
import type { TJobRun } from "../schemas/jobs";

export interface ExperimentOfJob {
  projectId: string;
  slug: string;
  /** The experiment's metric ids by key: the run's metrics were checked against them. */
  metricIds: ReadonlyMap<string, string>;
}

/** The stored run, or null when nothing was written (see storeJobRun). */
export async function storeRunOfJob(
  db: Db,
  experiment: ExperimentOfJob,
  job: JobToStore,
  run: TJobRun,
  options: Parameters<typeof storeJobRun>[4],
): Promise<{ id: string; repetition: number } | null> {
  const judged = withGeneratorVerdict(run);
  const [metrics = []] = await prepareRuns(db, experiment, [judged], () => ["run"], options.now);
  const prepared = metrics.map((metric) => ({ metricId: experiment.metricIds.get(metric.key) as string, prepared: metric }));
  return storeJobRun(db, job, judged, prepared, options);
}
