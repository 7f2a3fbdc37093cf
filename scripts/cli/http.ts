// The CLI's calls to the Versus REST API: streamed bodies with a progress line, the server's
// error message on failure, and retries while the server cannot take the call right now (a 503
// while its database restarts, a proxy's 502/504 while it restarts itself, a refused or reset
// connection): at least the server's Retry-After apart, with backoff, for up to
// VERSUS_RETRY_SECONDS. Uploads and imports carry an Idempotency-Key, so a retry of a request
// that was stored after all is answered with the stored runs instead of storing them twice.
import fs from "node:fs";
import { Readable } from "node:stream";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The server's Retry-After, in milliseconds, when it sent one. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

/** No answer at all: the server could not be reached, or the connection broke. */
class UnreachableError extends Error {
  constructor(
    message: string,
    readonly code: string,
    options: ErrorOptions,
  ) {
    super(message, options);
  }
}

export interface ApiTarget {
  url: string;
  apiKey: string;
  /** How long to keep retrying a call the server cannot take right now; 0 never retries. */
  retrySeconds: number;
}

const DEFAULT_RETRY_SECONDS = 60;

export function apiTargetFromEnv(env = process.env): ApiTarget {
  const url = env.VERSUS_URL?.replace(/\/$/, "");
  const apiKey = env.VERSUS_API_KEY;
  if (!url) throw new Error("VERSUS_URL is not set (e.g. export VERSUS_URL=http://localhost:3000)");
  if (!apiKey) throw new Error("VERSUS_API_KEY is not set: create a key on the project's API keys page, or run `npx versus admin create-key --project <slug>`");
  const retry = env.VERSUS_RETRY_SECONDS?.trim();
  const retrySeconds = retry ? Number(retry) : DEFAULT_RETRY_SECONDS;
  if (!Number.isFinite(retrySeconds) || retrySeconds < 0) throw new Error(`VERSUS_RETRY_SECONDS must be a number of seconds (0 never retries), not "${retry}"`);
  return { url, apiKey, retrySeconds };
}

/** POSTs a file as the request body, reporting upload progress for files over 1 MB. */
export async function postFile(
  target: ApiTarget,
  path: string,
  file: string,
  headers: Record<string, string>,
  progress: (sent: number, total: number) => void,
): Promise<unknown> {
  const total = fs.statSync(file).size;
  const streams: fs.ReadStream[] = [];
  try {
    // Each try reads the file again.
    return await call(target, path, () => {
      let sent = 0;
      const stream = fs.createReadStream(file, { highWaterMark: 1024 * 1024 });
      streams.push(stream);
      stream.on("data", (chunk) => {
        sent += chunk.length;
        progress(sent, total);
      });
      return {
        method: "POST",
        headers: { Authorization: `Bearer ${target.apiKey}`, "Content-Length": String(total), ...headers },
        body: Readable.toWeb(stream) as ReadableStream,
        duplex: "half",
      } as RequestInit;
    });
  } finally {
    for (const stream of streams) stream.destroy();
  }
}

/** POSTs a JSON body (none when `body` is undefined), e.g. to start a batch. */
export function postJson(target: ApiTarget, path: string, body?: unknown): Promise<unknown> {
  return call(target, path, () => ({
    method: "POST",
    headers: {
      Authorization: `Bearer ${target.apiKey}`,
      Accept: "application/json",
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  }));
}

/** GETs a JSON answer, e.g. the CI gate's verdict. */
export function getJson(target: ApiTarget, path: string): Promise<unknown> {
  return call(target, path, () => ({ headers: { Authorization: `Bearer ${target.apiKey}`, Accept: "application/json" } }));
}

// What the server (or a proxy in front of it) answers when it cannot take the call right now.
const retryableStatuses = new Set([429, 502, 503, 504]);
// The server is not listening (restarting) or dropped the connection (restarted under the call).
const retryableNetworkCodes = new Set(["ECONNREFUSED", "ECONNRESET", "UND_ERR_SOCKET"]);
const MAX_BACKOFF_MS = 30_000;
/** Longest Retry-After honoured: a wrong header must not park a CI job for hours. */
const MAX_RETRY_AFTER_MS = 5 * 60_000;

/** `init()` makes each try's request (a streamed body cannot be sent twice). */
async function call(target: ApiTarget, path: string, init: () => RequestInit): Promise<unknown> {
  const giveUpAt = Date.now() + target.retrySeconds * 1000;
  for (let retry = 0; ; retry++) {
    try {
      return await callOnce(target, path, init());
    } catch (error) {
      const waitMs = retryWait(error, retry);
      if (waitMs === undefined || Date.now() + waitMs > giveUpAt) throw error;
      console.error(`versus: ${(error as Error).message}; retrying in ${Math.round(waitMs / 1000)} s`);
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
  }
}

/** How long to wait before retry number `retry` (0-based) after `error`; undefined: do not retry. */
function retryWait(error: unknown, retry: number): number | undefined {
  const retryable =
    (error instanceof ApiError && retryableStatuses.has(error.status)) || (error instanceof UnreachableError && retryableNetworkCodes.has(error.code));
  if (!retryable) return undefined;
  // Exponential backoff from 1 s with half of it random, so many CI jobs do not come back in step.
  const ceiling = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.min(retry, 10));
  const backoff = ceiling / 2 + (Math.random() * ceiling) / 2;
  return Math.max(backoff, error instanceof ApiError ? (error.retryAfterMs ?? 0) : 0);
}

/** One request: the parsed JSON body, or an error with the server's message (and each bad field). */
async function callOnce(target: ApiTarget, path: string, init: RequestInit): Promise<unknown> {
  let response: Response;
  let text: string;
  try {
    response = await fetch(`${target.url}${path}`, init);
    text = await response.text();
  } catch (error) {
    // fetch says only "fetch failed"; the reason (ECONNREFUSED, ENOTFOUND, …) is in its cause.
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause : undefined;
    const code = (cause as { code?: string } | undefined)?.code ?? "";
    const reason = code || cause?.message || (error instanceof Error ? error.message : String(error));
    throw new UnreachableError(`cannot reach ${target.url} (${reason}): is VERSUS_URL right and the server running?`, code, { cause: error });
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (!response.ok) {
    const error = (body as { error?: { message?: string; details?: { fields?: { path: (string | number)[]; message: string }[] } } } | undefined)?.error;
    const fields = error?.details?.fields?.map((f) => `\n  ${f.path.join(".")}: ${f.message}`).join("") ?? "";
    throw new ApiError(
      response.status,
      `${response.status} ${response.statusText}: ${error?.message ?? text.slice(0, 500)}${fields}`,
      retryAfterMs(response.headers.get("retry-after")),
    );
  }
  return body;
}

/** A Retry-After header (whole seconds, or an HTTP date) in milliseconds; undefined when absent or unreadable. */
function retryAfterMs(header: string | null): number | undefined {
  const text = header?.trim() ?? "";
  const ms = /^\d+$/.test(text) ? Number(text) * 1000 : /GMT$/.test(text) ? Date.parse(text) - Date.now() : NaN;
  return Number.isFinite(ms) ? Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS) : undefined;
}
