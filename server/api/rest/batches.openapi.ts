// Starting, watching and cancelling a batch from CI in the OpenAPI document (../openapi.ts
// collects them); the handlers are batches.ts.
import type { ZodOpenApiOperationObject } from "zod-openapi";
import { ZBatchPath, ZBatchStatus, ZBatchWaitQuery, ZCancelBatchReply, ZStartBatchRequest } from "../../schemas/batch-runs";
import { ZExperimentPath } from "../../schemas/comparison";
import { jsonMediaTypes } from "./media-type";
import { bodyErrors, errorResponses, jsonContent, keyedErrors } from "./openapi-parts";

const runScope = { "403": "The API key may only upload results: start and cancel need a key that may start runs (chosen when the key is created)" } as const;

export const postBatchOperation: ZodOpenApiOperationObject = {
  tags: ["Batches"],
  summary: "Start a batch of the experiment's variants on the project's agents",
  description: [
    "Queues variants × (the experiment's warm-up runs + `runs` measured runs) jobs, interleaved or in a seeded random order, as the",
    "experiment page's Run does, on any agent that offers the workloads (or the one `agentId`, or those with all `labels`).",
    "`commit`, `branch`, `commitMessage` and `commitTime` are stamped on every run the batch stores (the history and `versus check`",
    "see them). Refused with nothing started when a variant has no workload, a variant is unknown, or no online agent can run it now.",
    "An empty body starts every variant with the experiment's settings. Watch it with GET /api/v1/batches/{id}.",
  ].join(" "),
  requestParams: { path: ZExperimentPath },
  requestBody: { required: false, ...jsonContent(ZStartBatchRequest) },
  responses: {
    "201": { description: "The batch, queued", ...jsonContent(ZBatchStatus) },
    ...errorResponses({
      "400": "Malformed JSON or invalid fields (details.fields names each)",
      ...runScope,
      "404": "No such experiment in the key's project, or no active agent with that agentId",
      "422":
        "A variant without a workload, an unknown variant, a pinned agent that cannot run a workload, a batch too large, or no online agent able to run it (the message says which and why)",
      ...bodyErrors(jsonMediaTypes),
      ...keyedErrors,
    }),
  },
};

export const getBatchOperation: ZodOpenApiOperationObject = {
  tags: ["Batches"],
  summary: "A batch's progress and, once every job succeeded, its verdict; waits up to wait seconds for news (long-poll)",
  description: [
    "Answers at once when `wait` is 0, when the batch changed since the answer whose `version` is `seen`, or when it has finished;",
    "otherwise as soon as it changes (a job started or finished, an agent took a job), or when the wait is over.",
    "`result` compares the batch's own runs: each variant against the experiment's baseline (Mann-Whitney U on per-run values,",
    "direction-aware, a change counts only when significant and at least `minChange` %); `verdict` is `regression` when any metric got worse.",
    "`npx versus run` calls this and exits 1 on a regression, 2 when the batch failed or was cancelled.",
  ].join(" "),
  requestParams: { path: ZBatchPath, query: ZBatchWaitQuery },
  responses: {
    "200": { description: "The batch", ...jsonContent(ZBatchStatus) },
    ...errorResponses({ "400": "A wait outside 0–30 or a bad minChange", "404": "No such batch in the key's project", ...keyedErrors }),
  },
};

export const postCancelBatchOperation: ZodOpenApiOperationObject = {
  tags: ["Batches"],
  summary: "Cancel a batch: queued jobs at once, running ones are asked to stop",
  requestParams: { path: ZBatchPath },
  responses: {
    "200": { description: "What was cancelled", ...jsonContent(ZCancelBatchReply) },
    ...errorResponses({ "400": "A bad batch id", ...runScope, "404": "No such batch in the key's project", ...keyedErrors }),
  },
};
