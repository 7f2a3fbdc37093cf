// The agent protocol's part of the OpenAPI document (docs/agent-protocol.md), from the same Zod
// schemas the handlers validate with.
import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { ZAgentRegister, ZAgentRegistered, ZHeartbeat, ZHeartbeatReply } from "../schemas/agents";
import { leaseConflictReasons, ZClaimQuery, ZClaimReply, ZCompleteReply, ZCompleteRequest, ZFailReply, ZFailRequest, ZJobPath, ZLeaseReply, ZLeaseRequest, ZReleaseReply } from "../schemas/jobs";
// A cycle with openapi.ts, harmless: agentPaths() runs only once both modules have loaded.
import { bodyErrors, errorResponses } from "./openapi";
import { jsonMediaTypes } from "./rest/media-type";

export const agentSecuritySchemes = {
  enrollmentToken: { type: "http", scheme: "bearer", description: "An agent enrollment token (venr_…) from a project's Agents page: only for register" },
  agentCredential: { type: "http", scheme: "bearer", description: "The agent credential (vsag_…) that register returned" },
} as const;

const asAgent = [{ agentCredential: [] }];
const json = <T extends z.ZodType>(schema: T) => ({ content: { "application/json": { schema } } });

export function agentPaths(): ZodOpenApiPathsObject {
  // Inside the function: openapi.ts imports this module, so its helpers exist only once both have loaded.
  const unauthorized = { "401": "Missing, unknown or revoked agent credential: stop the agent" } as const;
  /** What every agent call with a JSON body can answer. */
  const bodyProblems = { "400": "Malformed JSON or invalid fields (details.fields names each)", ...bodyErrors(jsonMediaTypes) } as const;
  const aboutAJob = {
    ...unauthorized,
    "404": "No such job in this agent's project",
    "409": `The lease is not this agent's (any more); details.reason says which case (${Object.keys(leaseConflictReasons).join(", ")}): stop the job and drop its result`,
  } as const;

  return {
    "/api/v1/agents/register": {
      post: {
        tags: ["Agents"],
        summary: "Enroll an agent (or rotate the credential of one with the same name)",
        security: [{ enrollmentToken: [] }],
        requestBody: { required: true, ...json(ZAgentRegister) },
        responses: {
          "201": { description: "Enrolled; the credential is shown this once", ...json(ZAgentRegistered) },
          ...errorResponses({ ...bodyProblems, "401": "Missing, unknown, expired or revoked enrollment token", "409": "A revoked agent has this name" }),
        },
      },
    },
    "/api/v1/agents/heartbeat": {
      post: {
        tags: ["Agents"],
        summary: "Report liveness and what the agent runs; hear which jobs to stop and whether to exit",
        security: asAgent,
        requestBody: { required: false, ...json(ZHeartbeat) },
        responses: { "200": { description: "Recorded", ...json(ZHeartbeatReply) }, ...errorResponses({ ...bodyProblems, ...unauthorized }) },
      },
    },
    "/api/v1/jobs/claim": {
      post: {
        tags: ["Jobs"],
        summary: "Lease the next job this agent may run, waiting for one up to `wait` seconds (long-poll)",
        security: asAgent,
        requestParams: { query: ZClaimQuery },
        responses: {
          "200": { description: "A job, leased to this agent", ...json(ZClaimReply) },
          "204": { description: "No job came within the wait" },
          ...errorResponses({ "400": "A wait outside 0–30", ...unauthorized }),
        },
      },
    },
    "/api/v1/jobs/{id}/lease": {
      post: {
        tags: ["Jobs"],
        summary: "Renew the lease (every leaseSeconds / 3); hear whether a user cancelled the job",
        security: asAgent,
        requestParams: { path: ZJobPath },
        requestBody: { required: true, ...json(ZLeaseRequest) },
        responses: { "200": { description: "Renewed", ...json(ZLeaseReply) }, ...errorResponses({ ...bodyProblems, ...aboutAJob }) },
      },
    },
    "/api/v1/jobs/{id}/complete": {
      post: {
        tags: ["Jobs"],
        summary: "Report the job's result: one run in the format of POST /api/v1/results, without variant and repetition",
        description: "Stored once per job: repeating the call answers 200 with the same run. A warm-up's result is checked, then discarded (run: null).",
        security: asAgent,
        requestParams: { path: ZJobPath },
        requestBody: { required: true, ...json(ZCompleteRequest) },
        responses: {
          "201": { description: "Stored", ...json(ZCompleteReply) },
          "200": { description: "Completed before: the run stored then", ...json(ZCompleteReply) },
          ...errorResponses({ ...bodyProblems, ...aboutAJob, "422": "A result that contradicts the experiment (unknown metric, other unit): fail the job" }),
        },
      },
    },
    "/api/v1/jobs/{id}/fail": {
      post: {
        tags: ["Jobs"],
        summary: "Report a failed attempt (retried after a backoff until maxAttempts unless not retryable), or acknowledge a cancellation",
        security: asAgent,
        requestParams: { path: ZJobPath },
        requestBody: { required: true, ...json(ZFailRequest) },
        responses: { "200": { description: "Recorded: where the job stands now", ...json(ZFailReply) }, ...errorResponses({ ...bodyProblems, ...aboutAJob }) },
      },
    },
    "/api/v1/jobs/{id}/release": {
      post: {
        tags: ["Jobs"],
        summary: "Give the job back without counting the attempt (the agent is shutting down)",
        security: asAgent,
        requestParams: { path: ZJobPath },
        requestBody: { required: true, ...json(ZLeaseRequest) },
        responses: { "200": { description: "Queued again (or cancelled, if a user cancelled it)", ...json(ZReleaseReply) }, ...errorResponses({ ...bodyProblems, ...aboutAJob }) },
      },
    },
  };
}
