import { ZAgentRef } from "../../schemas/agents";
import { ZProjectRef } from "../../schemas/project";
import { advertisedWorkloads, listAgents, requestAgentStop, resumeAgent, revokeAgent } from "../../agents/agent-admin";
import { createTRPCRouter, projectProcedure } from "../trpc";

// The Agents page: everyone in the project sees the agents and the workloads they offer (the
// variant form needs those); members revoke agents, ask them to stop, and resume them.
export const agentRouter = createTRPCRouter({
  list: projectProcedure("viewer")
    .input(ZProjectRef)
    .query(({ ctx }) => listAgents(ctx.db, ctx.access.projectId)),
  workloads: projectProcedure("viewer")
    .input(ZProjectRef)
    .query(({ ctx }) => advertisedWorkloads(ctx.db, ctx.access.projectId)),
  revoke: projectProcedure("member")
    .input(ZAgentRef)
    .mutation(({ ctx, input }) => revokeAgent(ctx.db, ctx.access.projectId, input.agentId)),
  requestStop: projectProcedure("member")
    .input(ZAgentRef)
    .mutation(({ ctx, input }) => requestAgentStop(ctx.db, ctx.access.projectId, input.agentId)),
  resume: projectProcedure("member")
    .input(ZAgentRef)
    .mutation(({ ctx, input }) => resumeAgent(ctx.db, ctx.access.projectId, input.agentId)),
});
