// What can go wrong on a call, as types the loops act on (the table in docs/agent-protocol.md):
//   Unauthorized  → the credential is unknown or revoked: stop the agent.
//   Conflict      → the lease is not ours any more: stop that job and drop its result.
//   NotFound      → no such job for this agent: drop it.
//   Rejected      → the server refused the request itself (400, 413, 422): never retry it as is.
//   Unavailable   → 5xx, 429 or a network error: retry with backoff (waiting at least the
//                   server's Retry-After), keep the result.

export interface ErrorBody {
  code?: string;
  message?: string;
  details?: unknown;
}

export class ApiError extends Error {
  constructor(
    readonly call: string,
    /** HTTP status, or 0 when no response came (network error, timeout). */
    readonly status: number,
    message: string,
    readonly body?: ErrorBody,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class UnauthorizedError extends ApiError {}
export class ConflictError extends ApiError {}
export class NotFoundError extends ApiError {}
export class RejectedError extends ApiError {}
export class UnavailableError extends ApiError {
  /** How long the server asked to wait before the next try (its Retry-After), when it said. */
  retryAfterMs?: number;
}

/** The typed error for a response that was not a success; `retryAfterMs` from its Retry-After header. */
export function errorForResponse(call: string, status: number, body: ErrorBody | undefined, retryAfterMs?: number): ApiError {
  const message = `${call}: HTTP ${status}${body?.message ? ` ${body.message}` : ""}`;
  if (status === 401) return new UnauthorizedError(call, status, message, body);
  if (status === 404) return new NotFoundError(call, status, message, body);
  if (status === 409) return new ConflictError(call, status, message, body);
  if (status === 429 || status >= 500) return Object.assign(new UnavailableError(call, status, message, body), { retryAfterMs });
  return new RejectedError(call, status, message, body);
}

export function isRetryable(error: unknown): boolean {
  return error instanceof UnavailableError;
}

/**
 * A claim answered with a job this agent cannot read (a server speaking another version of the
 * protocol). The job is leased to this agent all the same, so the agent fails it, saying why,
 * rather than leave it leased until its lease runs out and then claim it again.
 */
export class UnreadableJobError extends Error {
  constructor(
    readonly jobId: string,
    readonly leaseToken: string,
    readonly problem: string,
  ) {
    super(`the agent cannot read job ${jobId}: ${problem}`);
    this.name = "UnreadableJobError";
  }
}
