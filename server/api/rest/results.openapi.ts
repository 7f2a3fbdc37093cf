// POST /api/v1/results in the OpenAPI document (../openapi.ts collects it); the handler is results.ts.
import type { ZodOpenApiOperationObject } from "zod-openapi";
import { ZIdempotencyHeaders, ZResultsUpload, ZUploadResponse } from "../../schemas/results";
import { resultsMediaTypes } from "./media-type";
import { badTextNote, bodyErrors, errorResponses, keyedErrors } from "./openapi-parts";

const ZResultsUploadDoc = ZResultsUpload.meta({ id: "ResultsUpload" });

const uploadResponses = {
  "201": { description: "Stored", content: { "application/json": { schema: ZUploadResponse.meta({ id: "UploadResponse" }) } } },
  "200": { description: "A retry of a stored request (same Idempotency-Key and body)", content: { "application/json": { schema: ZUploadResponse } } },
};

export const postResultsOperation: ZodOpenApiOperationObject = {
  summary: "Upload runs in Versus's JSON format",
  requestParams: { header: ZIdempotencyHeaders },
  requestBody: { required: true, content: Object.fromEntries(resultsMediaTypes.map((type) => [type, { schema: ZResultsUploadDoc }])) },
  responses: {
    ...uploadResponses,
    ...errorResponses({
      "400": [
        "Invalid fields (details.fields names each), malformed JSON, a body that is not UTF-8 (the message gives the byte offset),",
        `or a bad Idempotency-Key. ${badTextNote}.`,
      ].join(" "),
      "404": "No such experiment (and create was not requested)",
      "409": "Idempotency-Key reused with a different body",
      "422": "Unknown variant or metric, or a unit that contradicts the experiment",
      ...bodyErrors(resultsMediaTypes),
      ...keyedErrors,
    }),
  },
};
