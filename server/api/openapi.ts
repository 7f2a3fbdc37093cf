// The OpenAPI 3.1 document of the REST API, generated from the same Zod schemas that validate
// requests, so the description cannot drift from what the server accepts: field constraints
// (lengths, ranges, "one of samples, summary…") come from the schemas, the accepted media types
// from the handlers' own lists, and the error codes from server/core/errors.ts.
import { z } from "zod";
import { createDocument } from "zod-openapi";
import { appErrorCodes, type AppErrorCode } from "../core/errors";
import { ZComparison, ZComparisonQuery, ZExperimentPath } from "../schemas/comparison";
import { ZHistory, ZHistoryQuery } from "../schemas/history";
import { importFormatDescriptions } from "../schemas/import-formats";
import { ZImportQuery } from "../schemas/imports";
import { leaseConflictReasons } from "../schemas/jobs";
import { ZIdempotencyHeaders, ZResultsUpload, ZUploadResponse } from "../schemas/results";
import { MAX_INPUT_DEPTH } from "../schemas/storable";
import { importMediaTypes, resultsMediaTypes } from "./rest/media-type";

const errorCodes = Object.keys(appErrorCodes) as [AppErrorCode, ...AppErrorCode[]];
import { agentPaths, agentSecuritySchemes } from "./openapi-agents";
import { regressionPaths } from "./openapi-regressions";

export const ZError = z
  .object({
    error: z.object({
      code: z.enum(errorCodes),
      message: z.string(),
      details: z
        .object({
          fields: z
            .array(z.object({ path: z.array(z.union([z.string(), z.number()])), message: z.string() }))
            .optional()
            .meta({ description: "Bad input: each field's location in the request (keys and array indices, e.g. [\"run\", \"metrics\", 0, \"unit\"]) and what is wrong with it" }),
          reason: z
            .string()
            .optional()
            .meta({ description: `Which case of the code it is, where that matters to a program. A 409 about a job's lease: ${Object.entries(leaseConflictReasons).map(([reason, meaning]) => `${reason} (${meaning})`).join("; ")}` }),
        })
        .optional(),
    }),
  })
  .meta({ id: "Error", description: "Every error: a code, a message naming the problem, field-level details for bad input, and for some codes the case it is." });

const ZHealth = z.object({
  status: z.enum(["ok", "degraded"]),
  app: z.object({ version: z.string(), uptimeSeconds: z.number() }),
  database: z.object({ status: z.enum(["ok", "unreachable"]), latencyMs: z.number().optional(), error: z.string().optional() }),
});

type ErrorStatus = { [Code in AppErrorCode]: `${(typeof appErrorCodes)[Code]}` }[AppErrorCode];

const retryAfter = z.object({ "Retry-After": z.number().int().min(1).meta({ description: "Seconds to wait before trying again", example: 5 }) });

/**
 * The error responses of one operation: each status it can answer, saying when, and 503 (with
 * Retry-After) while the database cannot be reached, which every operation that uses it can answer.
 */
export const errorResponses = (described: Partial<Record<ErrorStatus, string>>) =>
  Object.fromEntries(
    Object.entries({ ...described, "503": described["503"] ?? "The database is unavailable (restarting, refusing connections or unreachable): retry after the seconds in Retry-After" }).map(([status, description]) => [
      status,
      { description, content: { "application/json": { schema: ZError } }, ...(status === "503" ? { headers: retryAfter } : {}) },
    ]),
  );

/** What every operation behind an API key can answer. */
const keyedErrors = {
  "401": "Missing, unknown or revoked API key (with WWW-Authenticate)",
  "500": "Internal error; the server log has the details",
} as const;

/** What every operation with a body can answer. */
export const bodyErrors = (types: readonly string[]) =>
  ({
    "413": "Body larger than VERSUS_MAX_BODY_BYTES (64 MB by default)",
    "415": `Content-Type is not one of ${types.join(", ")} (no Content-Type counts as application/octet-stream), or its charset is not UTF-8`,
  }) as const;

const badTextNote = `Text cannot contain U+0000 or lone UTF-16 surrogates, and JSON no more than ${MAX_INPUT_DEPTH} levels of objects and arrays`;

const ZResultsUploadDoc = ZResultsUpload.meta({ id: "ResultsUpload" });

const uploadResponses = {
  "201": { description: "Stored", content: { "application/json": { schema: ZUploadResponse.meta({ id: "UploadResponse" }) } } },
  "200": { description: "A retry of a stored request (same Idempotency-Key and body)", content: { "application/json": { schema: ZUploadResponse } } },
};

export function buildOpenApiDocument(serverUrl?: string) {
  return createDocument({
    openapi: "3.1.0",
    info: {
      title: "Versus API",
      version: "1",
      description: [
        "Upload performance results and import benchmark tool output. Authenticate with a project API key: `Authorization: Bearer <key>`.",
        'Errors are `{"error": {"code", "message", "details"}}`; bad input names each field in `details.fields`. While the database cannot be reached (restarting), every operation that needs it answers 503 `UNAVAILABLE` with a `Retry-After` header: retry after that many seconds.',
        `${badTextNote}; bodies are UTF-8. A method a path does not list is answered 405 with an \`Allow\` header.`,
      ].join(" "),
    },
    servers: serverUrl ? [{ url: serverUrl }] : undefined,
    components: { securitySchemes: { apiKey: { type: "http", scheme: "bearer", description: "A project API key (vs_…)" }, ...agentSecuritySchemes } },
    security: [{ apiKey: [] }],
    paths: {
      "/api/health": {
        get: {
          summary: "Liveness and database reachability",
          security: [],
          responses: {
            "200": { description: "Up, database reachable", content: { "application/json": { schema: ZHealth } } },
            "503": { description: "Database unreachable", content: { "application/json": { schema: ZHealth } } },
          },
        },
      },
      "/api/v1/openapi.json": {
        get: {
          summary: "This document",
          security: [],
          responses: { "200": { description: "The OpenAPI 3.1 document", content: { "application/json": { schema: z.record(z.string(), z.unknown()) } } } },
        },
      },
      "/api/v1/results": {
        post: {
          summary: "Upload runs in Versus's JSON format",
          requestParams: { header: ZIdempotencyHeaders },
          requestBody: { required: true, content: Object.fromEntries(resultsMediaTypes.map((type) => [type, { schema: ZResultsUploadDoc }])) },
          responses: {
            ...uploadResponses,
            ...errorResponses({
              "400": `Invalid fields (details.fields names each), malformed JSON, a body that is not UTF-8 (the message gives the byte offset), or a bad Idempotency-Key. ${badTextNote}.`,
              "404": "No such experiment (and create was not requested)",
              "409": "Idempotency-Key reused with a different body",
              "422": "Unknown variant or metric, or a unit that contradicts the experiment",
              ...bodyErrors(resultsMediaTypes),
              ...keyedErrors,
            }),
          },
        },
      },
      "/api/v1/experiments/{slugOrId}/comparison": {
        get: {
          summary: "Before/after comparison of an experiment's variants",
          description:
            "Per metric, every variant with runs, always — also with one variant, or when no other variant has the metric: runs, median with a distribution-free 95% CI, mean ± sample sd, CV, min/max of the runs, percentiles merged from their histograms. Per candidate against the baseline: change as ratio and percent with a Hodges–Lehmann CI, two-sided Mann-Whitney U (Holm-adjusted across candidates), Welch's t-test, and a direction-aware verdict (better, worse, no_change, insufficient_data with the reason); when there is no candidate to test, `comparisons` is empty and the metric's `reason` says why.",
          requestParams: { path: ZExperimentPath, query: ZComparisonQuery },
          responses: {
            "200": { description: "The comparison", content: { "application/json": { schema: ZComparison } } },
            ...errorResponses({
              "400": "A bad slugOrId or baseline (details.fields names it)",
              "404": "No such experiment in the key's project",
              "422": "The baseline is not a variant of the experiment",
              ...keyedErrors,
            }),
          },
        },
      },
      "/api/v1/experiments/{slugOrId}/history": {
        get: {
          summary: "A metric's history over commits, with its change points",
          description:
            "One point per git commit of the variant's runs (on one branch, or all): the median of the commit's run values (each run reduced by the metric's aggregation) with its distribution-free 95% CI and every run's value, ordered by commit time (gitCommitTime, else the commit's first run). A window (from, to) longer than maxPoints commits is thinned keeping each slice's lowest and highest median and both commits around each change point. Change points: E-Divisive means over the commit medians (permutation test, p ≤ 0.01), with the commit range, the change in % with a 95% Hodges–Lehmann interval, a direction-aware verdict and the review status.",
          requestParams: { path: ZExperimentPath, query: ZHistoryQuery },
          responses: {
            "200": { description: "The history", content: { "application/json": { schema: ZHistory } } },
            ...errorResponses({
              "400": "A bad slugOrId, from, to or maxPoints (details.fields names it)",
              "404": "No such experiment in the key's project, or no such metric or variant in it (details.fields names metric or variant)",
              ...keyedErrors,
            }),
          },
        },
      },
      "/api/v1/imports": {
        post: {
          summary: "Import a benchmark tool's output",
          description: `The body is the tool's raw output, as text (text/plain, text/csv…), JSON, JSON lines or an untyped file. Formats: ${Object.entries(importFormatDescriptions).map(([name, description]) => `\`${name}\` — ${description}`).join("; ")}.`,
          requestParams: { query: ZImportQuery, header: ZIdempotencyHeaders },
          // (An empty body is refused with 400: the document says so, and the fuzzer need not try it as valid.)
          requestBody: { required: true, content: Object.fromEntries(importMediaTypes.map((type) => [type, { schema: z.string().min(1) }])) },
          responses: {
            "201": { description: "Imported", content: { "application/json": { schema: ZUploadResponse } } },
            "200": { description: "A retry of a stored import", content: { "application/json": { schema: ZUploadResponse } } },
            ...errorResponses({
              "400": `Bad query parameters (unknown format, bad slug), an empty body, a body that is not UTF-8 (the message gives the byte offset), or names in the output no field can hold. ${badTextNote}.`,
              "404": "No such experiment (and create was not requested)",
              "409": "Idempotency-Key reused with a different body",
              "422": "The body is not valid output of that tool (e.g. another tool's file), or unknown variants/metrics",
              ...bodyErrors(importMediaTypes),
              ...keyedErrors,
            }),
          },
        },
      },
      // The CI gate and status badges (README "CI gate").
      ...regressionPaths(),
      // The agent protocol (docs/agent-protocol.md): its own credentials.
      ...agentPaths(),
    },
  });
}
