// POST /api/v1/imports in the OpenAPI document (../openapi.ts collects it); the handler is imports.ts.
import { z } from "zod";
import type { ZodOpenApiOperationObject } from "zod-openapi";
import { importFormatDescriptions } from "../../schemas/import-formats";
import { ZImportQuery } from "../../schemas/imports";
import { ZIdempotencyHeaders, ZUploadResponse } from "../../schemas/results";
import { importMediaTypes } from "./media-type";
import { badTextNote, bodyErrors, errorResponses, keyedErrors } from "./openapi-parts";

export const postImportOperation: ZodOpenApiOperationObject = {
  summary: "Import a benchmark tool's output",
  description: [
    "The body is the tool's raw output, as text (text/plain, text/csv…), JSON, JSON lines or an untyped file.",
    `Formats: ${Object.entries(importFormatDescriptions)
      .map(([name, description]) => `\`${name}\` — ${description}`)
      .join("; ")}.`,
  ].join(" "),
  requestParams: { query: ZImportQuery, header: ZIdempotencyHeaders },
  // (An empty body is refused with 400: the document says so, and the fuzzer need not try it as valid.)
  requestBody: { required: true, content: Object.fromEntries(importMediaTypes.map((type) => [type, { schema: z.string().min(1) }])) },
  responses: {
    "201": { description: "Imported", content: { "application/json": { schema: ZUploadResponse } } },
    "200": { description: "A retry of a stored import", content: { "application/json": { schema: ZUploadResponse } } },
    ...errorResponses({
      "400": [
        "Bad query parameters (unknown format, bad slug), an empty body, a body that is not UTF-8 (the message gives the byte offset),",
        `or names in the output no field can hold. ${badTextNote}.`,
      ].join(" "),
      "404": "No such experiment (and create was not requested)",
      "409": "Idempotency-Key reused with a different body",
      "422": "The body is not valid output of that tool (e.g. another tool's file), or unknown variants/metrics",
      ...bodyErrors(importMediaTypes),
      ...keyedErrors,
    }),
  },
};
