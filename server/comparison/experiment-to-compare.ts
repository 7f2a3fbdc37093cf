// What a comparison read needs before it knows whether its cache holds the answer: the experiment,
// its variants (with their runsVersion) and metrics — the cache key (comparison-cache.ts) — and
// whether it has an A/A batch to take a noise floor from. One prepared statement on the pool
// (server/db/prepared-statements.ts): a comparison answered from the cache is this one round trip
// after authentication; through Prisma it was two queries, and Prisma's query pipeline was the
// largest share of a cached comparison's CPU under bench/load.ts.
import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import type { MetricAggregation, MetricDirection } from "../db/generated/enums";
import { preparedQuery } from "../db/prepared-statements";

export interface ExperimentToCompare {
  id: string;
  slug: string;
  title: string;
  alpha: number;
  updatedAt: Date;
  variants: { id: string; name: string; position: number; isBaseline: boolean; config: unknown; runsVersion: bigint }[];
  metrics: { id: string; key: string; label: string; unit: string; direction: MetricDirection; aggregation: MetricAggregation; position: number }[];
  /** Whether a finished A/A batch exists (noise-floor.ts's latestNoiseFloor would find one). */
  hasNoiseBatch: boolean;
}

type Row = Omit<ExperimentToCompare, "variants"> & { variants: (Omit<ExperimentToCompare["variants"][number], "runsVersion"> & { runsVersion: string })[] };

/** The experiment named `experimentRef` (slug or id) in the project, as a comparison reads it; null when there is none. */
export async function experimentToCompare(
  db: Db,
  where: { projectId: string } | { projectSlug: string },
  experimentRef: string,
): Promise<ExperimentToCompare | null> {
  const project =
    "projectId" in where
      ? Prisma.sql`e."projectId" = ${where.projectId}`
      : Prisma.sql`e."projectId" = (SELECT p."id" FROM "Project" p WHERE p."slug" = ${where.projectSlug})`;
  const [row] = await preparedQuery<Row>(
    db,
    Prisma.sql`
      SELECT e."id", e."slug", e."title", e."alpha", e."updatedAt",
        COALESCE((SELECT json_agg(json_build_object('id', v."id", 'name', v."name", 'position', v."position", 'isBaseline', v."isBaseline",
                    'config', v."config", 'runsVersion', v."runsVersion"::text) ORDER BY v."position", v."id")
                  FROM "Variant" v WHERE v."experimentId" = e."id"), '[]') AS "variants",
        COALESCE((SELECT json_agg(json_build_object('id', m."id", 'key', m."key", 'label', m."label", 'unit', m."unit", 'direction', m."direction",
                    'aggregation', m."aggregation", 'position', m."position") ORDER BY m."position", m."id")
                  FROM "Metric" m WHERE m."experimentId" = e."id"), '[]') AS "metrics",
        EXISTS (SELECT 1 FROM "JobBatch" b WHERE b."experimentId" = e."id" AND b."noise" AND b."cancelledAt" IS NULL
                AND NOT EXISTS (SELECT 1 FROM "Job" j WHERE j."batchId" = b."id" AND j."status" <> 'succeeded')) AS "hasNoiseBatch"
      FROM "Experiment" e
      WHERE ${project} AND (e."slug" = ${experimentRef} OR e."id" = ${experimentRef})
      LIMIT 1`,
  );
  if (!row) return null;
  return { ...row, variants: row.variants.map((variant) => ({ ...variant, runsVersion: BigInt(variant.runsVersion) })) };
}
