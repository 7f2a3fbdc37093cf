// The agents of a run several agents made together (a job group's merged run, docs/agents.md):
// each shard's own figures, kept on its job — requests, rate, its own percentiles, clock offset
// and start against the earliest shard's, whether its generator kept the rate — and its per-second
// series of the run's main rate metric, side by side for a stacked chart. Lost shards are listed
// with what is known of them. Null for a run one agent made.
import type { Db } from "../db/client";
import { AppError } from "../core/errors";
import type { TJobRun } from "../schemas/jobs";
import { histogramFigures } from "./histogram";

type TMetric = TJobRun["metrics"][number];

export interface RunShard {
  agent: string;
  shard: number;
  /** "measured": its share is in the run; "lost": its agent was lost mid-run and its share is missing. */
  state: "measured" | "lost";
  clockOffsetMs: number | null;
  /** Its measured window's start after the earliest shard's, on the agents' own clocks. */
  startOffsetMs: number | null;
  requests: number | null;
  throughput: number | null;
  p50: number | null;
  p99: number | null;
  /** Whether its load generator kept the asked rate (null: it did not say). */
  keptRate: boolean | null;
  cpuPercent: number | null;
}

export interface RunShards {
  shards: RunShard[];
  /** The spread of the measured shards' starts (their own clocks). */
  startSkewMs: number | null;
  /** The per-second series stacked on the run's page: one value per shard (agent) per second. */
  series: { key: string; unit: string | null; intervalMs: number; seconds: { second: number; values: Record<string, number> }[] } | null;
}

const SERIES_KEYS = ["throughput", "requests", "bytes_out", "bytes_in"];

const valueOf = (metric: TMetric | undefined) => metric?.value ?? metric?.summary?.mean ?? null;

export async function runShards(db: Db, projectId: string, experimentSlug: string, runId: string): Promise<RunShards | null> {
  const run = await db.run.findFirst({
    where: { id: runId, experiment: { projectId, slug: experimentSlug } },
    select: { job: { select: { groupId: true } } },
  });
  if (!run) throw new AppError("NOT_FOUND", `No run "${runId}" in experiment "${experimentSlug}"`);
  const groupId = run.job?.groupId;
  if (!groupId) return null;
  const jobs = await db.job.findMany({
    where: { groupId },
    orderBy: { shard: "asc" },
    select: { shard: true, status: true, shardRun: true, clockOffsetMs: true, runId: true, agent: { select: { name: true } } },
  });
  const documents = jobs.map((job) => (job.shardRun ?? null) as TJobRun | null);
  const starts = documents.map((document) => (document?.startedAt ? Date.parse(document.startedAt) : null));
  const measuredStarts = starts.filter((start): start is number => start !== null);
  const earliest = measuredStarts.length ? Math.min(...measuredStarts) : null;

  const shards: RunShard[] = jobs.map((job, i) => {
    const document = documents[i];
    const metric = (key: string) => document?.metrics.find((candidate) => candidate.key === key);
    const latency = metric("latency");
    const figures = latency?.histogram && latency.histogramScale ? histogramFigures(latency.histogram, latency.histogramScale) : null;
    const generator = (document?.environment as { generator?: { keptRate?: boolean; cpuPercent?: number } } | undefined)?.generator;
    const start = starts[i];
    return {
      agent: job.agent?.name ?? `shard ${(job.shard ?? 0) + 1}`,
      shard: job.shard ?? i,
      state: document ? "measured" : "lost",
      clockOffsetMs: job.clockOffsetMs,
      startOffsetMs: start !== null && start !== undefined && earliest !== null ? start - earliest : null,
      requests: valueOf(metric("requests")),
      throughput: valueOf(metric("throughput")),
      p50: figures?.p50 ?? valueOf(metric("latency_p50")),
      p99: figures?.p99 ?? valueOf(metric("latency_p99")),
      keptRate: typeof generator?.keptRate === "boolean" ? generator.keptRate : null,
      cpuPercent: typeof generator?.cpuPercent === "number" && generator.cpuPercent >= 0 ? generator.cpuPercent : null,
    };
  });
  return {
    shards,
    startSkewMs: measuredStarts.length ? Math.max(...measuredStarts) - (earliest as number) : null,
    series: stackedSeries(jobs, documents, earliest),
  };
}

/** The first of SERIES_KEYS every measured shard has a regular series of, second by second from the earliest start. */
function stackedSeries(
  jobs: { agent: { name: string } | null; shard: number | null }[],
  documents: (TJobRun | null)[],
  earliest: number | null,
): RunShards["series"] {
  if (earliest === null) return null;
  const measured = documents.flatMap((document, i) => (document ? [{ document, agent: jobs[i]?.agent?.name ?? `shard ${(jobs[i]?.shard ?? i) + 1}` }] : []));
  for (const key of SERIES_KEYS) {
    const parts = measured.map(({ document, agent }) => ({ agent, document, metric: document.metrics.find((metric) => metric.key === key) }));
    if (!parts.every((part) => part.metric?.timeSeries?.intervalMs)) continue;
    const intervalMs = parts[0]?.metric?.timeSeries?.intervalMs as number;
    const seconds = new Map<number, Record<string, number>>();
    for (const { agent, document, metric } of parts) {
      const series = metric?.timeSeries as NonNullable<TMetric["timeSeries"]>;
      const start = Date.parse(series.startedAt ?? document.startedAt ?? "");
      series.values.forEach((value, i) => {
        // Each point to the nearest step from the earliest start: the shards' clocks differ by milliseconds.
        const step = Math.round((start + i * intervalMs - earliest) / intervalMs);
        const row = seconds.get(step) ?? {};
        row[agent] = value;
        seconds.set(step, row);
      });
    }
    return {
      key,
      unit: parts[0]?.metric?.unit ?? null,
      intervalMs,
      seconds: [...seconds.entries()].sort(([a], [b]) => a - b).map(([second, values]) => ({ second, values })),
    };
  }
  return null;
}
