// docs/openapi.json: the OpenAPI document the server serves at /api/v1/openapi.json (without its
// `servers`, which name the origin a request came in through), committed so that the agents'
// conformance tests (Go, JVM, the reference agent) and agents written elsewhere can check their
// requests and answers against it without a running server. openapi-snapshot.test.ts fails when
// it is not what the server generates; `npm run openapi:snapshot` writes it again.
import path from "node:path";
import { buildOpenApiDocument } from "~/server/api/openapi";

export const openApiSnapshotPath = path.resolve(import.meta.dirname, "../../docs/openapi.json");

export const refreshCommand = "npm run openapi:snapshot";

/** The document as plain JSON (what a client parses), written two spaces deep. */
export function openApiSnapshotText(): string {
  return `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
}

/** Where two JSON values differ, as JSON pointers ("/paths/~1api~1v1~1jobs~1claim/post/…"), at most `limit`. */
export function jsonDifferences(expected: unknown, actual: unknown, limit = 20, at = ""): string[] {
  if (Object.is(expected, actual)) return [];
  const bothObjects = typeof expected === "object" && typeof actual === "object" && expected !== null && actual !== null;
  if (!bothObjects || Array.isArray(expected) !== Array.isArray(actual)) return [at || "/"];
  const found: string[] = [];
  const keys = new Set([...Object.keys(expected), ...Object.keys(actual)]);
  for (const key of keys) {
    if (found.length >= limit) break;
    const step = `${at}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`;
    found.push(...jsonDifferences((expected as Record<string, unknown>)[key], (actual as Record<string, unknown>)[key], limit - found.length, step));
  }
  return found;
}
