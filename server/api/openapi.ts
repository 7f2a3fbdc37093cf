// The OpenAPI 3.1 document of the REST API, generated from the same Zod schemas that validate
// requests, so the description cannot drift from what the server accepts.
import { z } from "zod";
import { createDocument } from "zod-openapi";
import { importers } from "../importers";
import { ZComparison, ZComparisonQuery } from "../schemas/comparison";
import { ZImportQuery } from "../schemas/imports";
import { ZResultsUpload, ZUploadResponse } from "../schemas/results";
import { agentPaths, agentSecuritySchemes } from "./openapi-agents";

export const ZError = z
  .object({
    error: z.object({
      code: z.enum(["BAD_REQUEST", "UNAUTHORIZED", "FORBIDDEN", "NOT_FOUND", "CONFLICT", "PAYLOAD_TOO_LARGE", "UNPROCESSABLE", "INTERNAL"]),
      message: z.string(),
      details: z.object({ fields: z.array(z.object({ path: z.array(z.union([z.string(), z.number()])), message: z.string() })) }).optional(),
    }),
  })
  .meta({ id: "Error", description: "Every error: a code, a message naming the problem, and field-level details for bad input." });

const ZHealth = z.object({
  status: z.enum(["ok", "degraded"]),
  app: z.object({ version: z.string(), uptimeSeconds: z.number() }),
  database: z.object({ status: z.enum(["ok", "unreachable"]), latencyMs: z.number().optional(), error: z.string().optional() }),
});

const errorResponses = (...statuses: [string, string][]) =>
  Object.fromEntries(statuses.map(([status, description]) => [status, { description, content: { "application/json": { schema: ZError } } }]));

const ZIdempotencyHeader = z.object({
  "Idempotency-Key": z
    .string()
    .optional()
    .meta({ description: "Retries with the same key and body store the runs once (200 with replayed: true); the same key with another body is a 409." }),
});

export function buildOpenApiDocument(serverUrl?: string) {
  return createDocument({
    openapi: "3.1.0",
    info: {
      title: "Versus API",
      version: "1",
      description: "Upload performance results and import benchmark tool output. Authenticate with a project API key: `Authorization: Bearer <key>`.",
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
      "/api/v1/results": {
        post: {
          summary: "Upload runs in Versus's JSON format",
          requestParams: { header: ZIdempotencyHeader },
          requestBody: { required: true, content: { "application/json": { schema: ZResultsUpload.meta({ id: "ResultsUpload" }) } } },
          responses: {
            "201": { description: "Stored", content: { "application/json": { schema: ZUploadResponse.meta({ id: "UploadResponse" }) } } },
            "200": { description: "A retry of a stored request (same Idempotency-Key and body)", content: { "application/json": { schema: ZUploadResponse } } },
            ...errorResponses(
              ["400", "Malformed JSON or invalid fields (details.fields names each)"],
              ["401", "Missing, unknown or revoked API key"],
              ["404", "No such experiment (and create was not requested)"],
              ["409", "Idempotency-Key reused with a different body"],
              ["413", "Body larger than VERSUS_MAX_BODY_BYTES (64 MB by default)"],
              ["422", "Unknown variant or metric, or a unit that contradicts the experiment"],
            ),
          },
        },
      },
      "/api/v1/experiments/{slugOrId}/comparison": {
        get: {
          summary: "Before/after comparison of an experiment's variants",
          description:
            "Per metric and variant: runs, median with a distribution-free 95% CI, mean ± sample sd, CV, merged percentiles. Per candidate against the baseline: change as ratio and percent with a Hodges–Lehmann CI, two-sided Mann-Whitney U (Holm-adjusted across candidates), Welch's t-test, and a direction-aware verdict (better, worse, no_change, insufficient_data with the reason).",
          requestParams: { path: z.object({ slugOrId: z.string().meta({ description: "experiment slug or id" }) }), query: ZComparisonQuery },
          responses: {
            "200": { description: "The comparison", content: { "application/json": { schema: ZComparison } } },
            ...errorResponses(["401", "Missing, unknown or revoked API key"], ["404", "No such experiment in the key's project"], ["422", "The baseline is not a variant of the experiment"]),
          },
        },
      },
      "/api/v1/imports": {
        post: {
          summary: "Import a benchmark tool's output",
          description: `The body is the tool's raw output. Formats: ${Object.entries(importers).map(([name, { description }]) => `\`${name}\` — ${description}`).join("; ")}.`,
          requestParams: { query: ZImportQuery, header: ZIdempotencyHeader },
          requestBody: { required: true, content: { "text/plain": { schema: z.string() }, "application/json": { schema: z.unknown() } } },
          responses: {
            "201": { description: "Imported", content: { "application/json": { schema: ZUploadResponse } } },
            "200": { description: "A retry of a stored import", content: { "application/json": { schema: ZUploadResponse } } },
            ...errorResponses(
              ["400", "Bad query parameters (unknown format, bad slug) or an empty body"],
              ["401", "Missing, unknown or revoked API key"],
              ["404", "No such experiment (and create was not requested)"],
              ["409", "Idempotency-Key reused with a different body"],
              ["413", "Body larger than VERSUS_MAX_BODY_BYTES"],
              ["422", "The body is not valid output of that tool (e.g. another tool's file), or unknown variants/metrics"],
            ),
          },
        },
      },
      // The agent protocol (docs/agent-protocol.md): its own credentials.
      ...agentPaths(),
    },
  });
}
