// Hostile input against the REST API's real route handlers on a real, migrated PostgreSQL: each
// class of request that once answered 500 (or was accepted and stored wrong) is refused with the
// right status and a field-level error, and leaves the database unchanged. The cases are classes,
// not examples: every text field of an upload, every route module and every method.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getComparisonRoute } from "~/app/api/v1/experiments/[slugOrId]/comparison/route";
import { POST as postAuthRoute } from "~/app/api/auth/[...all]/route";
import { POST as postImportRoute } from "~/app/api/v1/imports/route";
import { POST as postResultsRoute } from "~/app/api/v1/results/route";
import { db } from "~/server/db/client";
import { createApiKey } from "~/server/projects/api-keys";
import { createProject } from "~/server/projects/projects";
import { expectRefused, fieldPaths, type ErrorBody } from "~/test/rest-assertions";

afterAll(() => db.$disconnect());

const suffix = () => crypto.randomBytes(4).toString("hex");
let apiKey: string;

beforeAll(async () => {
  const slug = `hostile-${suffix()}`;
  await createProject(db, { name: slug, slug, description: "" });
  apiKey = (await createApiKey(db, slug, "hostile input")).secret;
});

const refused = (request: () => Promise<Response>, status: number, code: string) => expectRefused(db, request, status, code);

function postResults(body: string | Uint8Array<ArrayBuffer> | object, headers: Record<string, string | null> = {}) {
  const all: Record<string, string | null> = { authorization: `Bearer ${apiKey}`, "content-type": "application/json", ...headers };
  const sent = Object.fromEntries(Object.entries(all).filter((entry): entry is [string, string] => entry[1] !== null));
  const payload = typeof body === "string" || body instanceof Uint8Array ? body : JSON.stringify(body);
  return postResultsRoute(new Request("http://test.local/api/v1/results", { method: "POST", headers: sent, body: payload }));
}

function postImport(query: Record<string, string>, body: string | Uint8Array<ArrayBuffer>, headers: Record<string, string | null> = {}) {
  const all: Record<string, string | null> = { authorization: `Bearer ${apiKey}`, "content-type": "text/csv", ...headers };
  const sent = Object.fromEntries(Object.entries(all).filter((entry): entry is [string, string] => entry[1] !== null));
  return postImportRoute(new Request(`http://test.local/api/v1/imports?${new URLSearchParams(query)}`, { method: "POST", headers: sent, body }));
}

function getComparison(rawSlugOrId: string, query = "") {
  const slugOrId = decodeURIComponent(rawSlugOrId);
  return getComparisonRoute(
    new Request(`http://test.local/api/v1/experiments/${rawSlugOrId}/comparison${query}`, { headers: { authorization: `Bearer ${apiKey}` } }),
    {
      params: Promise.resolve({ slugOrId }),
    },
  );
}

/** An upload that fills every text field the format has, so each can be spoiled in turn. */
function fullUpload(experiment: string) {
  return {
    experiment,
    create: true,
    experimentTitle: "Plain vs gzip",
    runs: [
      {
        variant: "plain",
        status: "succeeded",
        repetition: 1,
        startedAt: "2026-11-21T05:51:58.840Z",
        finishedAt: "2026-11-21T05:52:58.840Z",
        environment: { os: "linux", cpu: { model: "EPYC", flags: ["avx2"] } },
        gitCommit: "0123abcd",
        gitBranch: "main",
        tags: ["ci"],
        sourceDetail: "a hand-written upload",
        metrics: [{ key: "latency", unit: "ms", direction: "lower_is_better", aggregation: "mean", label: "Latency", samples: [1, 2, 3] }],
      },
    ],
  };
}

type Path = (string | number)[];

/** Every string in `value` (object keys too, as "key:<path>"), with its path. */
function textLeaves(value: unknown, at: Path = []): { path: Path; key: boolean }[] {
  if (typeof value === "string") return [{ path: at, key: false }];
  if (Array.isArray(value)) return value.flatMap((item, i) => textLeaves(item, [...at, i]));
  if (value && typeof value === "object") {
    return Object.entries(value).flatMap(([key, item]) => [
      ...(at.some((p) => p === "environment") ? [{ path: [...at, key], key: true }] : []),
      ...textLeaves(item, [...at, key]),
    ]);
  }
  return [];
}

/** A deep copy of `value` with the string (or the object key) at `at` changed by `spoil`. */
function spoiled(value: unknown, at: Path, key: boolean, spoil: (text: string) => string): unknown {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let parent = copy;
  for (const step of at.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
  const last = at[at.length - 1] as string | number;
  if (key) {
    parent[spoil(String(last))] = parent[last];
    delete parent[last];
  } else {
    parent[last] = spoil(parent[last] as string);
  }
  return copy;
}

describe("values PostgreSQL cannot hold are refused with 400 naming the field, not a 500", () => {
  const upload = fullUpload("nul-everywhere");
  const leaves = textLeaves(upload);

  it("covers every text field of the upload (the list below is not empty by accident)", () => {
    expect(leaves.length).toBeGreaterThan(15);
  });

  it.each(leaves.map((leaf) => [`${leaf.key ? "the key " : ""}${leaf.path.join(".")}`, leaf] as const))("a NUL character in %s", async (_, leaf) => {
    const spoilt = spoiled(upload, leaf.path, leaf.key, (text) => `${text.slice(0, 1)}\u0000${text.slice(1)}`);
    const { body } = await refused(() => postResults(spoilt as object), 400, "BAD_REQUEST");
    const named = leaf.key ? [...leaf.path.slice(0, -1), `${String(leaf.path.at(-1)).slice(0, 1)}\u0000${String(leaf.path.at(-1)).slice(1)}`] : leaf.path;
    expect(fieldPaths(body)).toContain(named.join("."));
  });

  it("a lone UTF-16 surrogate (\\ud800 in the JSON text) in a text field and in the environment", async () => {
    const text = JSON.stringify(fullUpload("lone-surrogate")).replace('"plain"', '"pl\\ud800ain"').replace('"linux"', '"lin\\udc00ux"');
    const { body } = await refused(() => postResults(text), 400, "BAD_REQUEST");
    expect(fieldPaths(body)).toEqual(["runs.0.variant", "runs.0.environment.os"]);
    expect(body.error.message).toMatch(/surrogate/);
  });

  it("an integer beyond the int4 column (repetition 2147483648) is refused; 2147483647 is the largest", async () => {
    const upload = fullUpload(`int-range-${suffix()}`);
    upload.runs[0]!.repetition = 2_147_483_648;
    const { body } = await refused(() => postResults(upload), 400, "BAD_REQUEST");
    expect(fieldPaths(body)).toEqual(["runs.0.repetition"]);
    expect(body.error.message).toContain("2147483647");
    upload.runs[0]!.repetition = 2_147_483_647;
    const stored = await postResults(upload);
    expect(stored.status, await stored.clone().text()).toBe(201);
    // Its variant has no number left for an unnumbered run, even beside one of another variant: 422 naming that run, nothing stored.
    const unnumbered = { ...upload.runs[0]!, repetition: undefined };
    const exhausted = await refused(() => postResults({ ...upload, runs: [{ ...unnumbered, variant: "gzip" }, unnumbered] }), 422, "UNPROCESSABLE");
    expect(fieldPaths(exhausted.body)).toEqual(["runs.1.repetition"]);
    expect(exhausted.body.error.message).toContain('variant "plain" has no repetition numbers left');
  });

  it("JSON nested deeper than any real upload (an environment 4,000 levels deep) → 400 naming the limit", async () => {
    let deep: object = { leaf: 1 };
    for (let i = 0; i < 4000; i++) deep = { inner: deep };
    const upload = { ...fullUpload("too-deep"), runs: [{ ...fullUpload("too-deep").runs[0], environment: deep }] };
    const { body } = await refused(() => postResults(upload), 400, "BAD_REQUEST");
    expect(body.error.message).toMatch(/nested deeper than 32 levels/);
  });

  it("an environment a little nested (8 levels) is fine", async () => {
    let nested: object = { leaf: 1 };
    for (let i = 0; i < 7; i++) nested = { inner: nested };
    const upload = fullUpload(`nested-ok-${suffix()}`);
    const response = await postResults({ ...upload, runs: [{ ...upload.runs[0], environment: nested }] });
    expect(response.status, await response.clone().text()).toBe(201);
  });

  it("imports: a NUL in a query parameter, or inside the tool's output", async () => {
    const query = await refused(
      () => postImport({ format: "csv", experiment: "nul-import", create: "true", variant: "a\u0000b" }, "time [ms]\n1\n2\n"),
      400,
      "BAD_REQUEST",
    );
    expect(fieldPaths(query.body)).toEqual(["variant"]);
    const inBody = await refused(
      () => postImport({ format: "csv", experiment: "nul-import", create: "true" }, "variant,time [ms]\nfa\u0000st,1\nslow,2\n"),
      400,
      "BAD_REQUEST",
    );
    // Refused before parsing, naming where in the file (no tool prints U+0000).
    expect(inBody.body.error.message).toMatch(/NUL character \(U\+0000\) at line 2, column 3/);
  });

  it("the comparison: a NUL in the path segment or in ?baseline=", async () => {
    const segment = await refused(() => getComparison("%00"), 400, "BAD_REQUEST");
    expect(fieldPaths(segment.body)).toEqual(["slugOrId"]);
    const baseline = await refused(() => getComparison("some-experiment", "?baseline=a%00b"), 400, "BAD_REQUEST");
    expect(fieldPaths(baseline.body)).toEqual(["baseline"]);
  });
});

describe("sign-in (better-auth's own route and error shape): unstorable text is a 400, not a 500", () => {
  const signIn = (body: object) =>
    postAuthRoute(
      new Request("http://test.local/api/auth/sign-in/email", {
        method: "POST",
        headers: { "content-type": "application/json", origin: "http://test.local" },
        body: JSON.stringify(body),
      }),
    );

  it.each([
    ["a NUL in the email", { email: "a\u0000b@example.test", password: "a long enough password" }],
    ["a NUL in the password", { email: "nobody@example.test", password: "a long\u0000enough password" }],
    ["a lone surrogate in the email", { email: "a\ud800b@example.test", password: "a long enough password" }],
  ])("%s", async (_, body) => {
    const response = await signIn(body);
    const answer = (await response.json()) as { code: string; message: string };
    expect({ status: response.status, code: answer.code }, JSON.stringify(answer)).toEqual({ status: 400, code: "INVALID_INPUT" });
    expect(answer.message).toMatch(/(email|password): contains a (NUL|lone UTF-16 surrogate)/);
  });
});

describe("bodies are read as the media type and encoding they declare", () => {
  it("results: a Content-Type other than JSON → 415 naming what is accepted", async () => {
    for (const type of ["image/png", "text/plain", "application/x-www-form-urlencoded", "application/json; charset=iso-8859-1", null]) {
      const { body } = await refused(() => postResults(fullUpload(`media-${suffix()}`), { "content-type": type }), 415, "UNSUPPORTED_MEDIA_TYPE");
      expect(body.error.message).toContain("application/json");
    }
  });

  it("results: application/json with a UTF-8 charset, in any case, is stored", async () => {
    for (const type of ["application/json; charset=utf-8", "Application/JSON;Charset=UTF-8"]) {
      const response = await postResults(fullUpload(`media-ok-${suffix()}`), { "content-type": type });
      expect(response.status, await response.clone().text()).toBe(201);
    }
  });

  it("results: invalid UTF-8 → 400 naming the byte offset, never stored with replacement characters", async () => {
    const text = JSON.stringify(fullUpload(`utf8-${suffix()}`));
    const at = text.indexOf("plain") + 2;
    const bytes = Buffer.concat([Buffer.from(text.slice(0, at)), Buffer.from([0xc3, 0x28]), Buffer.from(text.slice(at))]);
    const { body } = await refused(() => postResults(bytes), 400, "BAD_REQUEST");
    expect(body.error.message).toContain(`byte offset ${at}`);
    expect(body.error.message).toMatch(/UTF-8/);
  });

  it("imports: tool output as text, CSV, JSON or an untyped file is accepted; an image, a form or another charset → 415", async () => {
    const csv = "time [ms]\n1\n2\n";
    for (const type of ["text/plain", "text/csv; charset=utf-8", "application/json", "application/octet-stream", null]) {
      const response = await postImport({ format: "csv", experiment: `media-${suffix()}`, create: "true" }, csv, { "content-type": type });
      expect(response.status, `${type}: ${await response.clone().text()}`).toBe(201);
    }
    for (const type of ["image/png", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "text/plain; charset=utf-16"]) {
      const { body } = await refused(
        () => postImport({ format: "csv", experiment: `media-${suffix()}`, create: "true" }, csv, { "content-type": type }),
        415,
        "UNSUPPORTED_MEDIA_TYPE",
      );
      expect(body.error.message).toContain("text/plain");
    }
  });

  it("imports: invalid UTF-8 → 400 naming the byte offset of the bad sequence", async () => {
    // A truncated three-byte sequence (E2 82 without its last byte) in the variant column.
    const bytes = Buffer.concat([Buffer.from("variant,time [ms]\nfa"), Buffer.from([0xe2, 0x82]), Buffer.from("st,1\n")]);
    const { body } = await refused(() => postImport({ format: "csv", experiment: `utf8-${suffix()}`, create: "true" }, bytes), 400, "BAD_REQUEST");
    expect(body.error.message).toContain("byte offset 20");
  });
});

// ---------------------------------------------------------------------------------------------
// Methods: every route handler module under app/ answers every method Next.js routes to it
// ---------------------------------------------------------------------------------------------

const NEXT_METHODS = ["GET", "HEAD", "OPTIONS", "POST", "PUT", "DELETE", "PATCH"] as const;
type RouteModule = Partial<
  Record<(typeof NEXT_METHODS)[number], (req: Request, ctx: { params: Promise<Record<string, string | string[]>> }) => Response | Promise<Response>>
>;

function routeFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    return entry.name === "route.ts" ? [full] : [];
  });
}

const APP_DIR = path.resolve(import.meta.dirname, "../../../app");
const routes = routeFiles(APP_DIR).map((file) => path.relative(APP_DIR, path.dirname(file)));

describe("every route handler module answers a method it does not implement with 405 and Allow", () => {
  it("finds the routes (health, trpc, auth, results, imports, comparison, openapi.json, the export downloads)", () => {
    expect(routes.length).toBeGreaterThanOrEqual(10);
  });

  it.each(routes)("/%s", async (route) => {
    const mod = (await import(path.join(APP_DIR, route, "route.ts"))) as RouteModule;
    const url = `http://test.local/${route}`;
    const ctx = { params: Promise.resolve({}) };
    const options = await mod.OPTIONS?.(new Request(url, { method: "OPTIONS" }), ctx);
    expect(options?.status, `${route}: OPTIONS`).toBe(204);
    const allow = (options?.headers.get("allow") ?? "").split(/,\s*/).filter(Boolean);
    expect(allow).toContain("OPTIONS");
    for (const method of NEXT_METHODS.filter((m) => !allow.includes(m))) {
      const handler = mod[method];
      expect(handler, `${route}: ${method} must be exported so that it answers 405 with Allow`).toBeDefined();
      const response = await handler!(new Request(url, { method }), ctx);
      expect(response.status, `${route}: ${method}`).toBe(405);
      expect(response.headers.get("allow")).toBe(allow.join(", "));
      const body = (await response.json()) as ErrorBody;
      expect(body.error.code).toBe("METHOD_NOT_ALLOWED");
      expect(body.error.message).toContain(method);
    }
  });
});
