// POST /api/v1/jobs/claim and /api/v1/jobs/{id}/{lease,complete,fail,release}
// (docs/agent-protocol.md). Thin: parse with the shared schema, call one service.
import { claimJobWaiting } from "../../jobs/claim";
import { completeJob } from "../../jobs/complete";
import { failJob, releaseJob, renewLease } from "../../jobs/lease";
import { ZClaimQuery, ZCompleteRequest, ZFailRequest, ZJobPath, ZLeaseRequest } from "../../schemas/jobs";
import { parseInput } from "../../schemas/validation";
import type { AgentContext } from "./agent-handler";
import { parseJson } from "./body";
import { json } from "./handler";
import { jsonMediaTypes, requireMediaType } from "./media-type";

export async function postClaim(ctx: AgentContext): Promise<Response> {
  const { wait } = parseInput(ZClaimQuery, Object.fromEntries(ctx.url.searchParams));
  const { agentId, projectId } = ctx.principal;
  if (ctx.principal.stopRequested) return new Response(null, { status: 204 });
  const job = await claimJobWaiting(ctx.db, { agentId, projectId }, {
    waitSeconds: wait,
    signal: ctx.req.signal,
    // The agent hung up as the job was leased: it never saw the lease, so give the job back.
    onAbandoned: async (claimed) => void (await releaseJob(ctx.db, { agentId, projectId, leaseToken: claimed.leaseToken }, claimed.id)),
  });
  return job ? json({ job }) : new Response(null, { status: 204 });
}

/** The JSON body of a call about one job, after checking the job id in the path. */
async function bodyOf(ctx: AgentContext, jobId: string) {
  parseInput(ZJobPath, { id: jobId });
  requireMediaType(ctx.req, jsonMediaTypes);
  return parseJson((await ctx.body()).bytes);
}

const holder = (ctx: AgentContext, leaseToken: string) => ({ agentId: ctx.principal.agentId, projectId: ctx.principal.projectId, leaseToken });

export async function postLease(ctx: AgentContext, jobId: string): Promise<Response> {
  const { leaseToken } = parseInput(ZLeaseRequest, await bodyOf(ctx, jobId));
  return json(await renewLease(ctx.db, holder(ctx, leaseToken), jobId));
}

export async function postComplete(ctx: AgentContext, jobId: string): Promise<Response> {
  const request = parseInput(ZCompleteRequest, await bodyOf(ctx, jobId));
  const { reply, created } = await completeJob(ctx.db, holder(ctx, request.leaseToken), jobId, request, {
    projectSlug: ctx.principal.projectSlug,
    agentName: ctx.principal.name,
    baseUrl: ctx.baseUrl,
  });
  return json(reply, created ? 201 : 200);
}

export async function postFail(ctx: AgentContext, jobId: string): Promise<Response> {
  const request = parseInput(ZFailRequest, await bodyOf(ctx, jobId));
  return json(await failJob(ctx.db, holder(ctx, request.leaseToken), jobId, request));
}

export async function postRelease(ctx: AgentContext, jobId: string): Promise<Response> {
  const { leaseToken } = parseInput(ZLeaseRequest, await bodyOf(ctx, jobId));
  return json(await releaseJob(ctx.db, holder(ctx, leaseToken), jobId));
}
