// What several operations of the OpenAPI document share: the one error body, the error responses
// (each status an operation can answer, 503 with Retry-After), the credentials and the errors of
// the agent protocol. Each operation itself is described beside its handler in this folder;
// ../openapi.ts collects them.
import { z } from "zod";
import { appErrorCodes, type AppErrorCode } from "../../core/errors";
import { leaseConflictReasons } from "../../schemas/jobs";
import { MAX_INPUT_DEPTH } from "../../schemas/storable";
import { jsonMediaTypes } from "./media-type";

const errorCodes = Object.keys(appErrorCodes) as [AppErrorCode, ...AppErrorCode[]];

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
            .meta({
              description:
                'Bad input: each field\'s location in the request (keys and array indices, e.g. ["run", "metrics", 0, "unit"]) and what is wrong with it',
            }),
          reason: z
            .string()
            .optional()
            .meta({
              description: `Which case of the code it is, where that matters to a program. A 409 about a job's lease: ${Object.entries(leaseConflictReasons)
                .map(([reason, meaning]) => `${reason} (${meaning})`)
                .join("; ")}`,
            }),
        })
        .optional(),
    }),
  })
  .meta({
    id: "Error",
    description: "Every error: a code, a message naming the problem, field-level details for bad input, and for some codes the case it is.",
  });

type ErrorStatus = { [Code in AppErrorCode]: `${(typeof appErrorCodes)[Code]}` }[AppErrorCode];

const retryAfter = z.object({ "Retry-After": z.number().int().min(1).meta({ description: "Seconds to wait before trying again", example: 5 }) });

const databaseUnavailable = "The database is unavailable (restarting, refusing connections or unreachable): retry after the seconds in Retry-After";

/**
 * The error responses of one operation: each status it can answer, saying when, and 503 (with
 * Retry-After) while the database cannot be reached, which every operation that uses it can answer.
 */
export const errorResponses = (described: Partial<Record<ErrorStatus, string>>) =>
  Object.fromEntries(
    Object.entries({ ...described, "503": described["503"] ?? databaseUnavailable }).map(([status, description]) => [
      status,
      { description, content: { "application/json": { schema: ZError } }, ...(status === "503" ? { headers: retryAfter } : {}) },
    ]),
  );

/** What every operation behind an API key can answer. */
export const keyedErrors = {
  "401": "Missing, unknown or revoked API key (with WWW-Authenticate)",
  "500": "Internal error; the server log has the details",
} as const;

/** What every operation with a body can answer. */
export const bodyErrors = (types: readonly string[]) =>
  ({
    "413": "Body larger than VERSUS_MAX_BODY_BYTES (64 MB by default)",
    "415": `Content-Type is not one of ${types.join(", ")} (no Content-Type counts as application/octet-stream), or its charset is not UTF-8`,
  }) as const;

export const badTextNote = `Text cannot contain U+0000 or lone UTF-16 surrogates, and JSON no more than ${MAX_INPUT_DEPTH} levels of objects and arrays`;

export const securitySchemes = {
  apiKey: { type: "http", scheme: "bearer", description: "A project API key (vs_…)" },
  enrollmentToken: { type: "http", scheme: "bearer", description: "An agent enrollment token (venr_…) from a project's Agents page: only for register" },
  agentCredential: { type: "http", scheme: "bearer", description: "The agent credential (vsag_…) that register returned" },
} as const;

export const asAgent = [{ agentCredential: [] }];
export const jsonContent = <T extends z.ZodType>(schema: T) => ({ content: { "application/json": { schema } } });

export const unauthorized = { "401": "Missing, unknown or revoked agent credential: stop the agent" } as const;
/** What every agent call with a JSON body can answer. */
export const bodyProblems = { "400": "Malformed JSON or invalid fields (details.fields names each)", ...bodyErrors(jsonMediaTypes) } as const;
export const aboutAJob = {
  ...unauthorized,
  "404": "No such job in this agent's project",
  "409": [
    "The lease is not this agent's (any more);",
    `details.reason says which case (${Object.keys(leaseConflictReasons).join(", ")}): stop the job and drop its result`,
  ].join(" "),
} as const;
