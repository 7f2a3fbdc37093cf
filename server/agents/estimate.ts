// How long one job of each variant takes, for the Run dialog's "about N min": the median time of
// this experiment's earlier agent jobs of that variant with the settings it has now (from claim to
// complete: start-up, warm-up and measurement included), else what the workload's own settings
// say a run lasts, else unknown. The dialog multiplies by the jobs it queues and divides by the
// agents that can take them.
import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { AppError } from "../core/errors";
import { workloadOf, type TVariantWorkload } from "../schemas/workload";

export interface VariantEstimate {
  variant: string;
  /** Seconds one job of this variant takes; null when nothing says. */
  seconds: number | null;
  /** Where `seconds` comes from: earlier jobs, or the workload's settings. */
  basis: "earlier jobs" | "settings" | null;
  /** How many earlier jobs the median is of. */
  jobs: number;
}

/** Jobs looked at per variant: the most recent ones, so a machine that got faster shows. */
const RECENT_JOBS = 50;

const number = (value: unknown): number | undefined => (typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined);

/**
 * Seconds one run lasts by the workload's own settings, for the built-in workloads whose settings
 * say it (the Go agent's http and grpc: warm-up + duration, 10 s when neither duration nor a
 * count of requests or calls is given; sleep: ms). Null when they do not (a count of operations
 * or requests, a command).
 */
export function settingsSeconds(workload: TVariantWorkload): number | null {
  const settings = workload.settings;
  switch (workload.workload) {
    case "http": {
      // A count of requests, or the JVM agent's http (its harness's iterations), says no time.
      if (["requests", "iterations", "iterationTime", "warmupIterations", "warmupTime"].some((key) => settings[key] !== undefined)) return null;
      return (number(settings.warmupSeconds) ?? 0) + (number(settings.duration) ?? 10);
    }
    case "grpc":
      // A count of calls says no time; else warm-up + duration, 10 s by default, as http.
      if (settings.calls !== undefined) return null;
      return (number(settings.warmupSeconds) ?? 0) + (number(settings.duration) ?? 10);
    case "sleep":
      return (number(settings.ms) ?? 1000) / 1000;
    default:
      return null;
  }
}

export async function estimateJobSeconds(db: Db, projectId: string, experimentSlug: string): Promise<VariantEstimate[]> {
  const experiment = await db.experiment.findUnique({
    where: { projectId_slug: { projectId, slug: experimentSlug } },
    select: { id: true, variants: { orderBy: { position: "asc" }, select: { id: true, name: true, config: true } } },
  });
  if (!experiment) throw new AppError("NOT_FOUND", `No experiment "${experimentSlug}" in this project`);
  const earlier = await db.$queryRaw<{ variantId: string; jobs: bigint; seconds: number }[]>(Prisma.sql`
    SELECT "variantId", count(*) AS jobs, percentile_cont(0.5) WITHIN GROUP (ORDER BY seconds) AS seconds
    FROM (
      SELECT j."variantId", extract(epoch FROM j."finishedAt" - j."startedAt")::float8 AS seconds,
        row_number() OVER (PARTITION BY j."variantId" ORDER BY j."finishedAt" DESC) AS recent
      FROM "Job" j JOIN "Variant" v ON v."id" = j."variantId"
      WHERE j."experimentId" = ${experiment.id} AND j."status" = 'succeeded'
        AND j."startedAt" IS NOT NULL AND j."finishedAt" IS NOT NULL
        -- Only jobs that ran the variant's workload and settings as they are now (its probes do not
        -- change how long a job takes, and jobs queued before probes existed have none).
        AND j."payload"->'workload' = v."config"->'workload'
        AND COALESCE(j."payload"->'settings', '{}'::jsonb) = COALESCE(v."config"->'settings', '{}'::jsonb)
    ) timed
    WHERE recent <= ${RECENT_JOBS}
    GROUP BY "variantId"`);
  const byVariant = new Map(earlier.map((row) => [row.variantId, row]));
  return experiment.variants.map((variant) => {
    const row = byVariant.get(variant.id);
    if (row) return { variant: variant.name, seconds: Number(row.seconds), basis: "earlier jobs", jobs: Number(row.jobs) };
    const workload = workloadOf(variant.config);
    const seconds = workload ? settingsSeconds(workload) : null;
    return { variant: variant.name, seconds, basis: seconds === null ? null : "settings", jobs: 0 };
  });
}
