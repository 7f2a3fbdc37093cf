// The agent protocol's wrappers around the one REST wrapper: register authenticates with an
// enrollment token (checked inside the registration's transaction), every other call with the
// agent's own credential.
import { bearerSecret } from "../../auth/bearer";
import { authenticateAgent, type AgentPrincipal } from "../../services/agents";
import { authenticatedRoute, type RestContext } from "./handler";

export type AgentContext = RestContext<AgentPrincipal>;

/** A call with `Authorization: Bearer vsag_…`: 401 for an unknown or revoked agent. */
export function agentRoute(handler: (ctx: AgentContext) => Promise<Response>) {
  return authenticatedRoute(authenticateAgent, handler);
}

/** POST /agents/register: the principal is the enrollment token's secret, verified by the service. */
export function enrollmentRoute(handler: (ctx: RestContext<string>) => Promise<Response>) {
  return authenticatedRoute(async (_db, authorization) => bearerSecret(authorization, "enrollment token"), handler);
}
