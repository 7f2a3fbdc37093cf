// The runs the CI gate and the badge compare: one commit's runs (the candidate) and the runs of the
// K commits before it on a branch (the baseline window). "Before" is by commit time when the
// uploader gave it, else by the time of the commit's first run (startedAt, else when it was
// stored) — the order of the history page (server/history/commit-series.ts): runs carry no commit
// graph, and CI uploads a commit's runs after the commits it builds on.
import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { AppError } from "../core/errors";
import { hasFiniteFigures, storedFigures, type StoredFigures } from "../runs/finite-figures";

/** A stored result's figures (mean is never null in the table). */
export interface WindowResult extends Omit<StoredFigures, "mean"> {
  mean: number;
  metricId: string;
  runId: string;
  variantId: string;
}

export interface CommitWindow {
  /** The checked commit's full hash. */
  commit: string;
  /** The earlier commits on the branch, newest first, with how many runs each has. */
  baselineCommits: { commit: string; runs: number }[];
  /** Metric results of the checked commit's runs. */
  candidate: WindowResult[];
  /** Metric results of the baseline window's runs. */
  baseline: WindowResult[];
}

const succeeded = "succeeded" as const;

/** A commit's time, over its runs grouped together (as commit-series.ts orders commits). */
const commitTime = Prisma.sql`COALESCE(MIN("gitCommitTime"), MIN(COALESCE("startedAt", "createdAt")))`;

/** The full hash of the one commit `ref` names (a hash or a unique prefix) among the experiment's runs. */
export async function resolveCommit(db: Db, experimentId: string, ref: string): Promise<string> {
  const rows = await db.run.findMany({
    where: { experimentId, status: succeeded, gitCommit: { startsWith: ref, mode: "insensitive" } },
    distinct: ["gitCommit"],
    select: { gitCommit: true },
    take: 2,
  });
  if (rows.length === 0)
    throw new AppError("NOT_FOUND", `No runs of commit ${ref} in this experiment: upload the commit's runs (with gitCommit) before checking it`);
  if (rows.length > 1) {
    throw new AppError("UNPROCESSABLE", `Commit ${ref} is ambiguous: it starts ${rows.map((r) => r.gitCommit).join(" and ")}; give more digits`, {
      fieldIssues: [{ path: ["commit"], message: "matches more than one commit" }],
    });
  }
  return rows[0]!.gitCommit as string;
}

export async function loadCommitWindow(
  db: Db,
  experimentId: string,
  input: { commit: string; branch: string; window: number; variantId?: string },
): Promise<CommitWindow> {
  const commit = await resolveCommit(db, experimentId, input.commit);
  const [first] = await db.$queryRaw<{ at: Date }[]>`
    SELECT ${commitTime} AS "at" FROM "Run"
    WHERE "experimentId" = ${experimentId} AND "gitCommit" = ${commit} AND "status" = 'succeeded'`;
  const before = await db.$queryRaw<{ commit: string; runs: bigint }[]>`
    SELECT "gitCommit" AS "commit", COUNT(*) AS "runs" FROM "Run"
    WHERE "experimentId" = ${experimentId} AND "gitBranch" = ${input.branch} AND "status" = 'succeeded'
      AND "gitCommit" IS NOT NULL AND "gitCommit" <> ${commit}
    GROUP BY "gitCommit"
    HAVING ${commitTime} < ${first!.at}
    ORDER BY ${commitTime} DESC, "gitCommit"
    LIMIT ${input.window}`;
  const baselineCommits = before.map((row) => ({ commit: row.commit, runs: Number(row.runs) }));

  const select = { metricId: true, ...storedFigures, run: { select: { id: true, variantId: true } } } as const;
  const variant = input.variantId ? { variantId: input.variantId } : {};
  const [candidateRows, baselineRows] = await Promise.all([
    db.runMetricResult.findMany({
      where: { run: { experimentId, status: succeeded, gitCommit: commit, ...variant } },
      orderBy: [{ run: { createdAt: "asc" } }, { runId: "asc" }],
      select,
    }),
    baselineCommits.length === 0
      ? []
      : db.runMetricResult.findMany({
          where: { run: { experimentId, status: succeeded, gitBranch: input.branch, gitCommit: { in: baselineCommits.map((c) => c.commit) }, ...variant } },
          orderBy: [{ run: { createdAt: "asc" } }, { runId: "asc" }],
          select,
        }),
  ]);
  // A result with a figure that is not finite (stored before ingest refused them) is left out,
  // as everywhere results are compared.
  const flatten = (rows: typeof candidateRows): WindowResult[] =>
    rows.filter(hasFiniteFigures).map(({ run, ...figures }) => ({ ...figures, runId: run.id, variantId: run.variantId }));
  return { commit, baselineCommits, candidate: flatten(candidateRows), baseline: flatten(baselineRows) };
}

/**
 * The newest commit with runs on `branch` (of `variantId`), by its time as above; the
 * branch defaults to that of the newest run with a commit. Null when there is none.
 */
export async function latestCommit(db: Db, experimentId: string, variantId: string, branch?: string): Promise<{ commit: string; branch: string } | null> {
  const [row] = await db.$queryRaw<{ commit: string; branch: string }[]>`
    SELECT "gitCommit" AS "commit", "gitBranch" AS "branch" FROM "Run"
    WHERE "experimentId" = ${experimentId} AND "variantId" = ${variantId} AND "status" = 'succeeded'
      AND "gitCommit" IS NOT NULL AND "gitBranch" IS NOT NULL ${branch === undefined ? Prisma.empty : Prisma.sql`AND "gitBranch" = ${branch}`}
    GROUP BY "gitCommit", "gitBranch"
    ORDER BY ${commitTime} DESC, "gitCommit"
    LIMIT 1`;
  return row ?? null;
}
