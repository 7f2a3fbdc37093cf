// Each process keeps the experiments its uploads stored into, as its last read of each gave them
// (readUploadExperiment: id, slug, definition version, variants, metrics and the histogram scales
// their earlier runs used), so an upload to an experiment it has seen stores its runs without
// reading it again first: a round trip and the read's work less per upload.
//
// A copy is never trusted on its own. The statement that stores runs under it
// (store-runs.ts, storeUploadRuns) locks the experiment's row FOR SHARE only while the row's slug
// and definitionVersion are the copy's. Triggers advance that version whenever a variant or metric
// is added or deleted, a variant is renamed, or a metric's key, unit or direction change, in the
// same transaction; an edit takes the row's exclusive lock, which the statement waits for and then
// reads the row as the edit left it. So a copy older than the experiment writes nothing, and the
// upload forgets it (forgetUploadExperiment) and goes the long way, reading under the lock. Every
// process checks the same row, so a change made through one is seen by all.
//
// A histogram scale is kept once a metric has one: runs are only ever deleted with their metric
// (which advances the version), so a metric's scale, once stored, is stored for good. A copy whose
// metric had none yet is read again by the next upload that brings values to scale for it.
import type { Db } from "../db/client";
import type { TRunMetricToStore } from "../schemas/results";
import { needsHistogramScales, recordsHistogram } from "./prepare-metric";
import { readUploadExperiment, type UploadExperiment } from "./upload-experiment";

/** Experiments kept per process; the oldest kept goes first beyond it. A copy is a few hundred bytes. */
const KEPT_AT_MOST = 1024;

const kept = new Map<string, UploadExperiment>();
const keyOf = (projectId: string, slug: string) => `${projectId}\u0000${slug}`;

type UploadRuns = { variant: string; metrics: TRunMetricToStore[] }[];

/** Whether `copy` has everything the upload's runs name, with the scales the runs need. */
function serves(copy: UploadExperiment, runs: UploadRuns): boolean {
  const variants = new Set(copy.variants.map((variant) => variant.name));
  const metrics = new Map(copy.metrics.map((metric) => [metric.key, metric]));
  return runs.every(
    (run) =>
      variants.has(run.variant) &&
      run.metrics.every((metric) => {
        const known = metrics.get(metric.key);
        return known !== undefined && (!recordsHistogram(metric) || typeof known.histogramScale === "number");
      }),
  );
}

/**
 * The experiment an upload names, from this process's copy when it has everything the upload's
 * runs name, otherwise read (and kept); null when there is none. Store under it with
 * storeUploadRuns, which checks the copy is current; forget it when that fails.
 */
export async function uploadExperimentOf(db: Db, projectId: string, slug: string, runs: UploadRuns): Promise<UploadExperiment | null> {
  const key = keyOf(projectId, slug);
  const copy = kept.get(key);
  if (copy && serves(copy, runs)) return copy;
  const read = await readUploadExperiment(db, projectId, slug, needsHistogramScales(runs));
  kept.delete(key);
  if (read) {
    if (kept.size >= KEPT_AT_MOST) kept.delete(kept.keys().next().value as string);
    kept.set(key, read);
  }
  return read;
}

/** Drops the copy of an experiment, after a statement found it out of date (or the experiment gone). */
export function forgetUploadExperiment(projectId: string, slug: string): void {
  kept.delete(keyOf(projectId, slug));
}
