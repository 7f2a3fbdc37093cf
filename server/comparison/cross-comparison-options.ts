// What the compare page's form offers: every experiment of a project with its variants and the
// distinct commits its runs were made from (with the message and commit time the runs gave), counted
// over succeeded runs (the ones compared).
import type { Db } from "../db/client";
import type { TRunSetOptions } from "../schemas/cross-comparison";
import { getProjectBySlug } from "../projects/projects";

export async function listRunSetOptions(db: Db, projectSlug: string): Promise<TRunSetOptions> {
  const project = await getProjectBySlug(db, projectSlug);
  const experiments = await db.experiment.findMany({
    where: { projectId: project.id },
    orderBy: { title: "asc" },
    select: { id: true, slug: true, title: true, variants: { orderBy: { position: "asc" }, select: { id: true, name: true } } },
  });
  const succeeded = { experiment: { projectId: project.id }, status: "succeeded" as const };
  const [perVariant, perCommit] = await Promise.all([
    db.run.groupBy({ by: ["variantId"], where: succeeded, _count: { _all: true } }),
    db.run.groupBy({
      by: ["experimentId", "gitCommit", "gitBranch"],
      where: { ...succeeded, gitCommit: { not: null } },
      _count: { _all: true },
      _max: { createdAt: true, gitCommitMessage: true, gitCommitTime: true },
    }),
  ]);
  const variantRuns = new Map(perVariant.map((row) => [row.variantId, row._count._all]));

  return {
    experiments: experiments.map((experiment) => {
      // A commit run on two branches is one commit: add its rows up, keep the latest branch seen.
      const commits = new Map<string, TRunSetOptions["experiments"][number]["commits"][number]>();
      for (const row of perCommit.filter((r) => r.experimentId === experiment.id)) {
        const gitCommit = row.gitCommit as string;
        const lastRunAt = row._max.createdAt as Date;
        const message = row._max.gitCommitMessage;
        const committedAt = row._max.gitCommitTime;
        const seen = commits.get(gitCommit);
        if (!seen) commits.set(gitCommit, { gitCommit, gitBranch: row.gitBranch, message, committedAt, runs: row._count._all, lastRunAt });
        else {
          seen.runs += row._count._all;
          seen.message ??= message;
          seen.committedAt ??= committedAt;
          if (lastRunAt > seen.lastRunAt) Object.assign(seen, { lastRunAt, gitBranch: row.gitBranch ?? seen.gitBranch });
        }
      }
      return {
        slug: experiment.slug,
        title: experiment.title,
        variants: experiment.variants.map((v) => ({ name: v.name, runs: variantRuns.get(v.id) ?? 0 })),
        // Newest first: "before/after a deploy" is usually about the latest commits.
        commits: [...commits.values()].sort((x, y) => y.lastRunAt.getTime() - x.lastRunAt.getTime()),
      };
    }),
  };
}
