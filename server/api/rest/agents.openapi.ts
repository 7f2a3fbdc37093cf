// POST /api/v1/agents/register and /api/v1/agents/heartbeat in the OpenAPI document (../openapi.ts
// collects them); the handlers are in agents.ts.
import type { ZodOpenApiOperationObject } from "zod-openapi";
import { ZAgentRegister, ZAgentRegistered, ZHeartbeat, ZHeartbeatReply } from "../../schemas/agents";
import { asAgent, bodyProblems, errorResponses, jsonContent, unauthorized } from "./openapi-parts";

export const postRegisterOperation: ZodOpenApiOperationObject = {
  tags: ["Agents"],
  summary: "Enroll an agent (or rotate the credential of one with the same name)",
  security: [{ enrollmentToken: [] }],
  requestBody: { required: true, ...jsonContent(ZAgentRegister) },
  responses: {
    "201": { description: "Enrolled; the credential is shown this once", ...jsonContent(ZAgentRegistered) },
    ...errorResponses({ ...bodyProblems, "401": "Missing, unknown, expired or revoked enrollment token", "409": "A revoked agent has this name" }),
  },
};

export const postHeartbeatOperation: ZodOpenApiOperationObject = {
  tags: ["Agents"],
  summary: "Report liveness and what the agent runs; hear which jobs to stop and whether to exit",
  security: asAgent,
  requestBody: { required: false, ...jsonContent(ZHeartbeat) },
  responses: { "200": { description: "Recorded", ...jsonContent(ZHeartbeatReply) }, ...errorResponses({ ...bodyProblems, ...unauthorized }) },
};
