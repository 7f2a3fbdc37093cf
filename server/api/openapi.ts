// The OpenAPI 3.1 document of the REST API, generated from the same Zod schemas that validate
// requests, so the description cannot drift from what the server accepts: field constraints
// (lengths, ranges, "one of samples, summary…") come from the schemas, the accepted media types
// from the handlers' own lists, and the error codes from server/core/errors.ts. Each operation is
// described beside its handler (rest/<name>.openapi.ts beside rest/<name>.ts), what several share
// in rest/openapi-parts.ts; this module only collects them under their paths. (Not in the handler
// modules themselves: those load the database client, which the document, built without a
// database by `npm run openapi:snapshot` and the unit tests, must not.)
import { z } from "zod";
import { createDocument } from "zod-openapi";
import { getHealthOperation } from "./health.openapi";
import { postHeartbeatOperation, postRegisterOperation } from "./rest/agents.openapi";
import { getBadgeOperation } from "./rest/badge.openapi";
import { getBatchOperation, postBatchOperation, postCancelBatchOperation } from "./rest/batches.openapi";
import { getCheckOperation } from "./rest/check.openapi";
import { getComparisonOperation } from "./rest/comparison.openapi";
import { getHistoryOperation } from "./rest/history.openapi";
import { postImportOperation } from "./rest/imports.openapi";
import {
  postClaimOperation,
  postCompleteOperation,
  postFailOperation,
  postLeaseOperation,
  postReadyOperation,
  postReleaseOperation,
} from "./rest/jobs.openapi";
import { badTextNote, securitySchemes } from "./rest/openapi-parts";
import { postResultsOperation } from "./rest/results.openapi";

export function buildOpenApiDocument(serverUrl?: string) {
  return createDocument({
    openapi: "3.1.0",
    info: {
      title: "Versus API",
      version: "1",
      description: [
        "Upload performance results and import benchmark tool output. Authenticate with a project API key: `Authorization: Bearer <key>`.",
        'Errors are `{"error": {"code", "message", "details"}}`; bad input names each field in `details.fields`.',
        "While the database cannot be reached (restarting), every operation that needs it answers 503 `UNAVAILABLE` with a",
        "`Retry-After` header: retry after that many seconds.",
        `${badTextNote}; bodies are UTF-8. A method a path does not list is answered 405 with an \`Allow\` header.`,
      ].join(" "),
    },
    servers: serverUrl ? [{ url: serverUrl }] : undefined,
    components: { securitySchemes },
    security: [{ apiKey: [] }],
    paths: {
      "/api/health": { get: getHealthOperation },
      "/api/v1/openapi.json": {
        get: {
          summary: "This document",
          security: [],
          responses: { "200": { description: "The OpenAPI 3.1 document", content: { "application/json": { schema: z.record(z.string(), z.unknown()) } } } },
        },
      },
      "/api/v1/results": { post: postResultsOperation },
      "/api/v1/experiments/{slugOrId}/comparison": { get: getComparisonOperation },
      "/api/v1/experiments/{slugOrId}/history": { get: getHistoryOperation },
      "/api/v1/imports": { post: postImportOperation },
      // The CI gate and status badges (docs/ci-gate-badges-and-alerts.md).
      "/api/v1/experiments/{slugOrId}/check": { get: getCheckOperation },
      "/api/v1/experiments/{slugOrId}/badge/{metric}": { get: getBadgeOperation },
      // Batches on the project's agents, started from CI (docs/ci-gate-badges-and-alerts.md).
      "/api/v1/experiments/{slugOrId}/batches": { post: postBatchOperation },
      "/api/v1/batches/{id}": { get: getBatchOperation },
      "/api/v1/batches/{id}/cancel": { post: postCancelBatchOperation },
      // The agent protocol (docs/agent-protocol.md): its own credentials.
      "/api/v1/agents/register": { post: postRegisterOperation },
      "/api/v1/agents/heartbeat": { post: postHeartbeatOperation },
      "/api/v1/jobs/claim": { post: postClaimOperation },
      "/api/v1/jobs/{id}/lease": { post: postLeaseOperation },
      "/api/v1/jobs/{id}/ready": { post: postReadyOperation },
      "/api/v1/jobs/{id}/complete": { post: postCompleteOperation },
      "/api/v1/jobs/{id}/fail": { post: postFailOperation },
      "/api/v1/jobs/{id}/release": { post: postReleaseOperation },
    },
  });
}
