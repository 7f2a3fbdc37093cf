// POST /api/v1/agents/register and /api/v1/agents/heartbeat (docs/agent-protocol.md).
import { ZAgentRegister, ZHeartbeat } from "../../schemas/agents";
import { parseInput } from "../../schemas/validation";
import { recordHeartbeat, registerAgent } from "../../agents/agents";
import type { AgentContext } from "./agent-handler";
import { parseJson } from "./body";
import { json, type RestContext } from "./handler";
import { jsonMediaTypes, requireMediaType } from "./media-type";

export async function postRegister(ctx: RestContext<string>): Promise<Response> {
  requireMediaType(ctx.req, jsonMediaTypes);
  const input = parseInput(ZAgentRegister, parseJson((await ctx.body()).bytes));
  return json(await registerAgent(ctx.db, ctx.principal, input), 201);
}

export async function postHeartbeat(ctx: AgentContext): Promise<Response> {
  const { bytes } = await ctx.body();
  // An empty body is a bare "I am alive"; a body is JSON and says so.
  if (bytes.length) requireMediaType(ctx.req, jsonMediaTypes);
  const input = parseInput(ZHeartbeat, bytes.length ? parseJson(bytes) : {});
  return json(await recordHeartbeat(ctx.db, ctx.principal, input));
}
