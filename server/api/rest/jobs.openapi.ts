// POST /api/v1/jobs/claim and /api/v1/jobs/{id}/{lease,ready,complete,fail,release} in the OpenAPI
// document (../openapi.ts collects them); the handlers are in jobs.ts.
import type { ZodOpenApiOperationObject } from "zod-openapi";
import {
  ZClaimQuery,
  ZClaimReply,
  ZCompleteReply,
  ZCompleteRequest,
  ZFailReply,
  ZFailRequest,
  ZJobPath,
  ZLeaseReply,
  ZLeaseRequest,
  ZReadyReply,
  ZReadyRequest,
  ZReleaseReply,
} from "../../schemas/jobs";
import { aboutAJob, asAgent, bodyProblems, errorResponses, jsonContent, unauthorized } from "./openapi-parts";

export const postClaimOperation: ZodOpenApiOperationObject = {
  tags: ["Jobs"],
  summary: "Lease the next job this agent may run, waiting for one up to `wait` seconds (long-poll)",
  security: asAgent,
  requestParams: { query: ZClaimQuery },
  responses: {
    "200": { description: "A job, leased to this agent", ...jsonContent(ZClaimReply) },
    "204": { description: "No job came within the wait" },
    ...errorResponses({ "400": "A wait outside 0–30", ...unauthorized }),
  },
};

export const postLeaseOperation: ZodOpenApiOperationObject = {
  tags: ["Jobs"],
  summary: "Renew the lease (every leaseSeconds / 3); hear whether a user cancelled the job",
  security: asAgent,
  requestParams: { path: ZJobPath },
  requestBody: { required: true, ...jsonContent(ZLeaseRequest) },
  responses: { "200": { description: "Renewed", ...jsonContent(ZLeaseReply) }, ...errorResponses({ ...bodyProblems, ...aboutAJob }) },
};

export const postReadyOperation: ZodOpenApiOperationObject = {
  tags: ["Jobs"],
  summary: "A job group's shard is ready: hear the start time every shard of the group starts at (null while others are not ready; ask again)",
  description:
    "Only for a job whose claim carried `group`. When every shard is ready the reply carries startAt, a server-clock instant a little ahead; a group not all ready within 60 s of its first ready shard is given back (409 lease_ended, naming the shards it waited for).",
  security: asAgent,
  requestParams: { path: ZJobPath },
  requestBody: { required: true, ...jsonContent(ZReadyRequest) },
  responses: {
    "200": { description: "Recorded: the start time, or who the group still waits for", ...jsonContent(ZReadyReply) },
    ...errorResponses({ ...bodyProblems, ...aboutAJob }),
  },
};

export const postCompleteOperation: ZodOpenApiOperationObject = {
  tags: ["Jobs"],
  summary: "Report the job's result: one run in the format of POST /api/v1/results, without variant and repetition",
  description: "Stored once per job: repeating the call answers 200 with the same run. A warm-up's result is checked, then discarded (run: null).",
  security: asAgent,
  requestParams: { path: ZJobPath },
  requestBody: { required: true, ...jsonContent(ZCompleteRequest) },
  responses: {
    "201": { description: "Stored", ...jsonContent(ZCompleteReply) },
    "200": { description: "Completed before: the run stored then", ...jsonContent(ZCompleteReply) },
    ...errorResponses({ ...bodyProblems, ...aboutAJob, "422": "A result that contradicts the experiment (unknown metric, other unit): fail the job" }),
  },
};

export const postFailOperation: ZodOpenApiOperationObject = {
  tags: ["Jobs"],
  summary: "Report a failed attempt (retried after a backoff until maxAttempts unless not retryable), or acknowledge a cancellation",
  security: asAgent,
  requestParams: { path: ZJobPath },
  requestBody: { required: true, ...jsonContent(ZFailRequest) },
  responses: { "200": { description: "Recorded: where the job stands now", ...jsonContent(ZFailReply) }, ...errorResponses({ ...bodyProblems, ...aboutAJob }) },
};

export const postReleaseOperation: ZodOpenApiOperationObject = {
  tags: ["Jobs"],
  summary: "Give the job back without counting the attempt (the agent is shutting down)",
  security: asAgent,
  requestParams: { path: ZJobPath },
  requestBody: { required: true, ...jsonContent(ZLeaseRequest) },
  responses: {
    "200": { description: "Queued again (or cancelled, if a user cancelled it)", ...jsonContent(ZReleaseReply) },
    ...errorResponses({ ...bodyProblems, ...aboutAJob }),
  },
};
