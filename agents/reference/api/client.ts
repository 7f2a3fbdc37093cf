// The protocol client: one method per call of docs/agent-protocol.md, each with its own retry
// policy. Methods return parsed responses or throw the typed errors of ./errors; callers never
// see a status code.
import { z } from "zod";
import type { Logger } from "../log";
import { errorForResponse, UnavailableError, UnreadableJobError, type ErrorBody } from "./errors";
import {
  ZClaimResponse,
  ZCompleteResponse,
  ZFailResponse,
  ZHeartbeatResponse,
  ZLeaseResponse,
  ZRegisterResponse,
  ZReleaseResponse,
  type FailRequest,
  type HeartbeatRequest,
  type Job,
  type RegisterRequest,
  type RunReport,
} from "./protocol";
import { parseRetryAfter, withRetry, type RetryPolicy } from "./retry";

export type CallName = "register" | "heartbeat" | "claim" | "lease" | "complete" | "fail" | "release";

/** Sized to what giving up costs: results are never given up on; a heartbeat is sent again soon. */
export const defaultRetryPolicies: Record<CallName, RetryPolicy> = {
  // Nothing works without a credential; keep trying while the server is down.
  register: { attempts: Infinity, baseDelayMs: 1_000, maxDelayMs: 60_000 },
  // The next tick sends another one.
  heartbeat: { attempts: 3, baseDelayMs: 500, maxDelayMs: 5_000 },
  // The idle loop: waiting out an outage here costs nothing.
  claim: { attempts: Infinity, baseDelayMs: 1_000, maxDelayMs: 30_000 },
  // Must land before the lease ends; the next renewal comes a third of a lease later.
  lease: { attempts: 4, baseDelayMs: 500, maxDelayMs: 5_000 },
  // A measured result (on disk meanwhile): retried until the server takes it.
  complete: { attempts: Infinity, baseDelayMs: 1_000, maxDelayMs: 60_000 },
  fail: { attempts: Infinity, baseDelayMs: 1_000, maxDelayMs: 60_000 },
  // Shutting down: if the server cannot be reached the lease simply expires.
  release: { attempts: 3, baseDelayMs: 500, maxDelayMs: 2_000 },
};

/** How long one request may take before it counts as a network error (claims add their wait). */
const REQUEST_TIMEOUT_MS = 30_000;

export interface ApiClientOptions {
  baseUrl: string;
  credential?: string;
  userAgent: string;
  log: Logger;
  retryPolicies?: Partial<Record<CallName, RetryPolicy>>;
}

export class ApiClient {
  private credential: string | undefined;
  private readonly policies: Record<CallName, RetryPolicy>;

  constructor(private readonly options: ApiClientOptions) {
    this.credential = options.credential;
    this.policies = { ...defaultRetryPolicies, ...options.retryPolicies };
  }

  setCredential(credential: string) {
    this.credential = credential;
  }

  register(enrollmentToken: string, body: RegisterRequest, signal?: AbortSignal) {
    return this.call("register", "/api/v1/agents/register", { body, bearer: enrollmentToken, signal, schema: ZRegisterResponse });
  }

  heartbeat(body: HeartbeatRequest, signal?: AbortSignal) {
    return this.call("heartbeat", "/api/v1/agents/heartbeat", { body, signal, schema: ZHeartbeatResponse });
  }

  /** Long-polls for a job; undefined when none came within `waitSeconds`. */
  async claim(waitSeconds: number, signal?: AbortSignal): Promise<Job | undefined> {
    const answer = await this.call("claim", `/api/v1/jobs/claim?wait=${waitSeconds}`, {
      body: {},
      signal,
      schema: z.unknown(),
      timeoutMs: waitSeconds * 1000 + REQUEST_TIMEOUT_MS,
    });
    if (answer === undefined) return undefined;
    const parsed = ZClaimResponse.safeParse(answer);
    if (parsed.success) return parsed.data.job;
    const job = (answer as { job?: { id?: unknown; leaseToken?: unknown } }).job;
    if (typeof job?.id === "string" && typeof job.leaseToken === "string") throw new UnreadableJobError(job.id, job.leaseToken, describeIssues(parsed.error));
    throw new Error(`claim: unexpected response from the server: ${describeIssues(parsed.error)}`);
  }

  renewLease(jobId: string, leaseToken: string, signal?: AbortSignal) {
    return this.call("lease", `/api/v1/jobs/${encodeURIComponent(jobId)}/lease`, { body: { leaseToken }, signal, schema: ZLeaseResponse });
  }

  complete(jobId: string, leaseToken: string, run: RunReport, signal?: AbortSignal) {
    return this.call("complete", `/api/v1/jobs/${encodeURIComponent(jobId)}/complete`, { body: { leaseToken, run }, signal, schema: ZCompleteResponse });
  }

  fail(jobId: string, body: FailRequest, signal?: AbortSignal) {
    return this.call("fail", `/api/v1/jobs/${encodeURIComponent(jobId)}/fail`, { body, signal, schema: ZFailResponse });
  }

  release(jobId: string, leaseToken: string, signal?: AbortSignal) {
    return this.call("release", `/api/v1/jobs/${encodeURIComponent(jobId)}/release`, { body: { leaseToken }, signal, schema: ZReleaseResponse });
  }

  /** One call with its retry policy; a 204 answers undefined. */
  private async call<S extends z.ZodType>(
    name: CallName,
    path: string,
    request: { body: unknown; schema: S; signal?: AbortSignal; bearer?: string; timeoutMs?: number },
  ): Promise<z.output<S> | undefined> {
    return withRetry(this.policies[name], () => this.send(name, path, request), {
      signal: request.signal,
      onRetry: (error, attempt, delayMs) =>
        this.options.log.warn("api.retry", {
          call: name,
          attempt,
          delay_ms: Math.round(delayMs),
          error: error instanceof Error ? error.message : String(error),
        }),
    });
  }

  private async send<S extends z.ZodType>(
    name: CallName,
    path: string,
    request: { body: unknown; schema: S; signal?: AbortSignal; bearer?: string; timeoutMs?: number },
  ): Promise<z.output<S> | undefined> {
    const bearer = request.bearer ?? this.credential;
    const timeout = AbortSignal.timeout(request.timeoutMs ?? REQUEST_TIMEOUT_MS);
    let response: Response;
    try {
      response = await fetch(new URL(path, this.options.baseUrl), {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "user-agent": this.options.userAgent,
          ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
        },
        body: JSON.stringify(request.body),
        signal: request.signal ? AbortSignal.any([request.signal, timeout]) : timeout,
      });
    } catch (error) {
      // The caller's own abort (shutdown) is not an outage: let it through untouched.
      if (request.signal?.aborted) throw error;
      throw new UnavailableError(name, 0, `${name}: ${describeNetworkError(error)}`);
    }
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      if (request.signal?.aborted) throw error;
      throw new UnavailableError(name, 0, `${name}: the response broke off (${describeNetworkError(error)})`);
    }
    if (!response.ok) throw errorForResponse(name, response.status, errorBody(text), parseRetryAfter(response.headers.get("retry-after")));
    if (response.status === 204) return undefined;
    const parsed = request.schema.safeParse(text ? JSON.parse(text) : {});
    if (!parsed.success) throw new Error(`${name}: unexpected response from the server: ${describeIssues(parsed.error)}`);
    return parsed.data;
  }
}

/** "job.workload.name: Invalid input: expected string, received undefined; …" */
function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join(".") || "body"}: ${issue.message}`).join("; ");
}

function errorBody(text: string): ErrorBody | undefined {
  try {
    const json = JSON.parse(text) as { error?: ErrorBody };
    return json.error ?? undefined;
  } catch {
    return text ? { message: text.slice(0, 200) } : undefined;
  }
}

function describeNetworkError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.name === "TimeoutError") return "no answer in time";
  // fetch wraps the socket error (ECONNREFUSED, ECONNRESET…) as its cause.
  const cause = (error as Error & { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? error.message;
}
