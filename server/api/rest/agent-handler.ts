// The agent protocol's wrappers around the one REST wrapper: register authenticates with an
// enrollment token (checked inside the registration's transaction), every other call with the
// agent's own credential: before the handler runs, or, for claim and complete (the calls agents
// make most), in the handler's own first statement (agentCredentialRoute).
import { bearerSecret, presentedSecret } from "../../auth/secret-tokens";
import { authenticateAgent, type AgentCredential, type AgentPrincipal } from "../../agents/agents";
import { authenticatedRoute, type RestContext } from "./handler";

export type AgentContext = RestContext<AgentPrincipal>;

/** A call with `Authorization: Bearer vsag_…`: 401 for an unknown or revoked agent. */
export function agentRoute(handler: (ctx: AgentContext) => Promise<Response>) {
  return authenticatedRoute(authenticateAgent, handler);
}

/** An agent credential as presented, for a handler that checks it itself (agents.ts queryAsAgent). */
export type AgentCredentialContext = RestContext<AgentCredential>;

/** A call with `Authorization: Bearer vsag_…` whose handler reads the agent itself; 401 for no or a malformed header. */
export function agentCredentialRoute(handler: (ctx: AgentCredentialContext) => Promise<Response>) {
  return authenticatedRoute(async (_db, authorization) => {
    const { secret, hash } = presentedSecret(authorization, "agent credential");
    return { secret, tokenHash: hash };
  }, handler);
}

/** POST /agents/register: the principal is the enrollment token's secret, verified by the service. */
export function enrollmentRoute(handler: (ctx: RestContext<string>) => Promise<Response>) {
  return authenticatedRoute(async (_db, authorization) => bearerSecret(authorization, "enrollment token"), handler);
}
