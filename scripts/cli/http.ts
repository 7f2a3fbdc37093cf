// The CLI's calls to the Versus REST API: streamed bodies with a progress line, the server's
// error message on failure.
import fs from "node:fs";
import { Readable } from "node:stream";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface ApiTarget {
  url: string;
  apiKey: string;
}

export function apiTargetFromEnv(env = process.env): ApiTarget {
  const url = env.VERSUS_URL?.replace(/\/$/, "");
  const apiKey = env.VERSUS_API_KEY;
  if (!url) throw new Error("VERSUS_URL is not set (e.g. export VERSUS_URL=http://localhost:3000)");
  if (!apiKey) throw new Error("VERSUS_API_KEY is not set: create a key on the project's API keys page, or run `npx versus admin create-key --project <slug>`");
  return { url, apiKey };
}

/** POSTs a file as the request body, reporting upload progress for files over 1 MB. */
export async function postFile(target: ApiTarget, path: string, file: string, headers: Record<string, string>, progress: (sent: number, total: number) => void): Promise<unknown> {
  const total = fs.statSync(file).size;
  let sent = 0;
  const stream = fs.createReadStream(file, { highWaterMark: 1024 * 1024 });
  stream.on("data", (chunk) => {
    sent += chunk.length;
    progress(sent, total);
  });
  try {
    return await call(target, path, {
      method: "POST",
      headers: { Authorization: `Bearer ${target.apiKey}`, "Content-Length": String(total), ...headers },
      body: Readable.toWeb(stream) as ReadableStream,
      duplex: "half",
    } as RequestInit);
  } finally {
    stream.destroy();
  }
}

/** GETs a JSON answer, e.g. the CI gate's verdict. */
export function getJson(target: ApiTarget, path: string): Promise<unknown> {
  return call(target, path, { headers: { Authorization: `Bearer ${target.apiKey}`, Accept: "application/json" } });
}

/** One request: the parsed JSON body, or an error with the server's message (and each bad field). */
async function call(target: ApiTarget, path: string, init: RequestInit): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(`${target.url}${path}`, init);
  } catch (error) {
    // fetch says only "fetch failed"; the reason (ECONNREFUSED, ENOTFOUND, …) is in its cause.
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause : undefined;
    const reason = (cause as { code?: string } | undefined)?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
    throw new Error(`cannot reach ${target.url} (${reason}): is VERSUS_URL right and the server running?`, { cause: error });
  }
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (!response.ok) {
    const error = (body as { error?: { message?: string; details?: { fields?: { path: (string | number)[]; message: string }[] } } } | undefined)?.error;
    const fields = error?.details?.fields?.map((f) => `\n  ${f.path.join(".")}: ${f.message}`).join("") ?? "";
    throw new ApiError(response.status, `${response.status} ${response.statusText}: ${error?.message ?? text.slice(0, 500)}${fields}`);
  }
  return body;
}
