// POST /api/v1/jobs/claim and /api/v1/jobs/{id}/{lease,ready,complete,fail,release}
// (docs/agent-protocol.md). Thin: parse with the shared schema, call one service.
import { claimJobAs, claimJobWaiting } from "../../agents/claim";
import { completeJob, jobToCompleteAs } from "../../agents/complete";
import { reportReady } from "../../agents/group-ready";
import { failJob, releaseJob, renewLease } from "../../agents/lease";
import { ZClaimQuery, ZCompleteRequest, ZFailRequest, ZJobPath, ZLeaseRequest, ZReadyRequest } from "../../schemas/jobs";
import { parseInput } from "../../schemas/validation";
import type { TClaimedJob } from "../../schemas/jobs";
import type { AgentContext, AgentCredentialContext } from "./agent-handler";
import { parseJson } from "./body";
import { json } from "./handler";
import { jsonMediaTypes, requireMediaType } from "./media-type";

export async function postClaim(ctx: AgentCredentialContext): Promise<Response> {
  const { wait } = parseInput(ZClaimQuery, Object.fromEntries(ctx.url.searchParams));
  // A look at the queue with the caller's authentication in one statement; only when it found
  // nothing does the claim wait (and look again, with the agent known).
  const first = await claimJobAs(ctx.db, ctx.principal);
  const { agentId, projectId, stopRequested } = first.principal;
  // The agent hung up as the job was leased: it never saw the lease, so give the job back.
  const abandon = async (claimed: TClaimedJob) => void (await releaseJob(ctx.db, { agentId, projectId, leaseToken: claimed.leaseToken }, claimed.id));
  if (stopRequested) return new Response(null, { status: 204 });
  if (first.job) {
    if (!ctx.req.signal.aborted) return json({ job: first.job });
    await abandon(first.job);
    return new Response(null, { status: 204 });
  }
  const job = await claimJobWaiting(ctx.db, { agentId, projectId }, { waitSeconds: wait, signal: ctx.req.signal, onAbandoned: abandon });
  return job ? json({ job }) : new Response(null, { status: 204 });
}

/** The JSON body of a call about one job, after checking the job id in the path. */
async function bodyOf(ctx: AgentContext | AgentCredentialContext, jobId: string) {
  parseInput(ZJobPath, { id: jobId });
  requireMediaType(ctx.req, jsonMediaTypes);
  return parseJson((await ctx.body()).bytes);
}

const holder = (ctx: AgentContext, leaseToken: string) => ({ agentId: ctx.principal.agentId, projectId: ctx.principal.projectId, leaseToken });

export async function postLease(ctx: AgentContext, jobId: string): Promise<Response> {
  const { leaseToken } = parseInput(ZLeaseRequest, await bodyOf(ctx, jobId));
  return json(await renewLease(ctx.db, holder(ctx, leaseToken), jobId));
}

/** `receivedAt`: the server's t1 of the agent's clock offset, taken by the route as the call arrived. */
export async function postReady(ctx: AgentContext, jobId: string, receivedAt = new Date()): Promise<Response> {
  const request = parseInput(ZReadyRequest, await bodyOf(ctx, jobId));
  return json(await reportReady(ctx.db, holder(ctx, request.leaseToken), jobId, request, receivedAt));
}

export async function postComplete(ctx: AgentCredentialContext, jobId: string): Promise<Response> {
  // The job is read with the caller's authentication in one statement.
  const found = await jobToCompleteAs(ctx.db, ctx.principal, jobId);
  const principal = found.principal;
  const request = parseInput(ZCompleteRequest, await bodyOf(ctx, jobId));
  const holder = { agentId: principal.agentId, projectId: principal.projectId, leaseToken: request.leaseToken };
  const { reply, created } = await completeJob(ctx.db, holder, jobId, found.job, request, {
    projectSlug: principal.projectSlug,
    agentName: principal.name,
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
