// The server's side of server/workloads/workload-fit.ts: what the project's agents advertise,
// read from their last register or heartbeat, and the check run when an experiment is saved and
// when it is run. Revoked agents do not count; offline ones do (their advert is what they ran
// last, and they may come back).
import type { Db } from "../db/client";
import { AppError, issuesSummary } from "../core/errors";
import type { TWorkloadAdvert } from "../schemas/workload";
import { workloadFitIssues, type FitExperiment, type WorkloadOffer } from "./workload-fit";
import { readAdvert } from "./workload-order";

/** Each workload name's offers, most recently seen agent first. */
export async function workloadOffers(db: Db, projectId: string): Promise<Map<string, WorkloadOffer[]>> {
  const agents = await db.agent.findMany({
    where: { projectId, revokedAt: null },
    orderBy: [{ lastSeenAt: { sort: "desc", nulls: "last" } }, { name: "asc" }],
    select: { name: true, kind: true, workloads: true },
  });
  const offers = new Map<string, WorkloadOffer[]>();
  for (const agent of agents) {
    for (const advert of (agent.workloads as TWorkloadAdvert[]).map(readAdvert)) {
      const offer: WorkloadOffer = {
        agent: { name: agent.name, kind: agent.kind },
        settingsSchema: advert.settingsSchema,
        ...(advert.metrics ? { metrics: advert.metrics } : {}),
      };
      offers.set(advert.name, [...(offers.get(advert.name) ?? []), offer]);
    }
  }
  return offers;
}

/**
 * Refuses (422, each problem on its field) an experiment whose metrics its variants' workloads
 * never report, or a variant whose settings no agent offering its workload takes.
 */
export async function requireWorkloadFit(db: Db, projectId: string, experiment: FitExperiment, what: string): Promise<void> {
  if (!experiment.variants.some((variant) => variant.config.workload)) return;
  const offers = await workloadOffers(db, projectId);
  const issues = workloadFitIssues(experiment, (name) => offers.get(name) ?? []);
  if (issues.length === 0) return;
  throw new AppError("UNPROCESSABLE", `${what}: ${issuesSummary(issues)}`, { fieldIssues: issues });
}
