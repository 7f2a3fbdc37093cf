// The one error type of server/. Services throw AppError with a code; the tRPC error formatter
// and the REST handlers translate the code into a tRPC code or an HTTP status.

export const appErrorCodes = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNPROCESSABLE: 422,
  INTERNAL: 500,
  // The database cannot be reached right now (server/db/unavailable.ts): retry after Retry-After.
  UNAVAILABLE: 503,
} as const;

export type AppErrorCode = keyof typeof appErrorCodes;

/** One problem with one input field; `path` is the field's location, e.g. ["variants", 1, "name"]. */
export interface FieldIssue {
  path: (string | number)[];
  message: string;
}

export class AppError extends Error {
  readonly code: AppErrorCode;
  readonly fieldIssues: FieldIssue[];
  /** Which case of its code this is, for a program to act on (e.g. a 409 about a job's lease: "lease_taken"). */
  readonly reason: string | undefined;

  constructor(code: AppErrorCode, message: string, options: { fieldIssues?: FieldIssue[]; reason?: string; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.fieldIssues = options.fieldIssues ?? [];
    this.reason = options.reason;
  }

  get httpStatus(): number {
    return appErrorCodes[this.code];
  }

  /** The REST error body: {"error": {"code", "message", "details": {"fields", "reason"}}}, details only when there are some. */
  toJSON() {
    const details = { ...(this.fieldIssues.length ? { fields: this.fieldIssues } : {}), ...(this.reason ? { reason: this.reason } : {}) };
    return { error: { code: this.code, message: this.message, details: Object.keys(details).length ? details : undefined } };
  }
}

/** What a caller is told about an unexpected failure; the details go to the server log only. */
export const INTERNAL_ERROR_MESSAGE = "Internal error; the server log has the details";

/**
 * The issues' messages for an error's one-line message: each different message once, with how many
 * fields it was said of when more than one (six runs missing one metric's unit are one sentence,
 * not six); the fields themselves stay in the error's details.
 */
export function issuesSummary(fieldIssues: readonly FieldIssue[]): string {
  const counts = new Map<string, number>();
  for (const { message } of fieldIssues) counts.set(message, (counts.get(message) ?? 0) + 1);
  return [...counts].map(([message, count]) => (count > 1 ? `${message} (${count} places)` : message)).join("; ");
}

export function badInput(fieldIssues: FieldIssue[]): AppError {
  const summary = fieldIssues.map((issue) => `${issue.path.join(".") || "input"}: ${issue.message}`).join("; ");
  return new AppError("BAD_REQUEST", `Invalid input — ${summary}`, { fieldIssues });
}
