// Comparisons cached per process with exact invalidation. A comparison is a function of the
// experiment's settings, its variants and metrics, and their runs; each variant's runsVersion is
// the id of the last transaction that inserted, changed or deleted one of its runs, their results or
// their time series (database triggers, server/db/sql-only-objects.ts). So the key — the experiment's and its
// variants' and metrics' rows, runsVersion included, read before the results — changes whenever
// anything the comparison reads does, and a key seen again always compares the same: a read after
// new runs computes afresh, every other read is answered from here instead of fetching and
// comparing every result again (what kept the comparison at hundreds of milliseconds under
// bench/load.ts). The experiment page's charts are a function of the same rows and of the runs'
// time series (which move the runsVersion too), so they are cached under the same key. Entries are
// deep-frozen: every reader shares them.
import type { TExperimentCharts } from "../schemas/charts";
import type { TComparison } from "../schemas/comparison";

/** A cache of deep-frozen values, the oldest entry out first once `maxEntries` are held. */
function frozenCache<T>(maxEntries: number) {
  const cache = new Map<string, T>();
  return {
    get: (key: string): T | undefined => cache.get(key),
    remember(key: string, value: T): T {
      // Oldest first out: a Map iterates in insertion order.
      if (cache.size >= maxEntries) cache.delete(cache.keys().next().value as string);
      const frozen = deepFreeze(value);
      cache.set(key, frozen);
      return frozen;
    },
  };
}

const comparisons = frozenCache<TComparison>(200);
// Fewer: charts hold each run's thinned time series.
const charts = frozenCache<TExperimentCharts>(50);

export interface ComparisonKeySource {
  experiment: { id: string; slug: string; title: string; alpha: number; updatedAt: Date };
  baselineId: string;
  variants: { id: string; name: string; position: number; isBaseline: boolean; config: unknown; runsVersion: bigint }[];
  metrics: { id: string; key: string; label: string; unit: string; direction: string; aggregation: string; position: number }[];
}

export function comparisonKey({ experiment, baselineId, variants, metrics }: ComparisonKeySource): string {
  return JSON.stringify([
    [experiment.id, experiment.slug, experiment.title, experiment.alpha, experiment.updatedAt.toISOString(), baselineId],
    variants.map((v) => [v.id, v.name, v.position, v.isBaseline, v.config, v.runsVersion.toString()]),
    metrics.map((m) => [m.id, m.key, m.label, m.unit, m.direction, m.aggregation, m.position]),
  ]);
}

export const cachedComparison = comparisons.get;
export const rememberComparison = comparisons.remember;
export const cachedCharts = charts.get;
export const rememberCharts = charts.remember;

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
