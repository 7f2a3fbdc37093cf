// The error body every REST call answers with, and the OpenAPI responses that describe it.
import { z } from "zod";

export const ZError = z
  .object({
    error: z.object({
      code: z.enum(["BAD_REQUEST", "UNAUTHORIZED", "FORBIDDEN", "NOT_FOUND", "CONFLICT", "PAYLOAD_TOO_LARGE", "UNPROCESSABLE", "INTERNAL"]),
      message: z.string(),
      details: z.object({ fields: z.array(z.object({ path: z.array(z.union([z.string(), z.number()])), message: z.string() })) }).optional(),
    }),
  })
  .meta({ id: "Error", description: "Every error: a code, a message naming the problem, and field-level details for bad input." });

/** OpenAPI responses for [status, description] pairs, each with the error body. */
export const errorResponses = (...statuses: [string, string][]) =>
  Object.fromEntries(statuses.map(([status, description]) => [status, { description, content: { "application/json": { schema: ZError } } }]));
