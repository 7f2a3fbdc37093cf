// The OpenAPI document must not understate the API: every operation lists the errors its handler
// can answer (with the one error body), and the constraints the server enforces appear in the
// schemas — lengths, integer ranges, the "give samples, summary, histogram or time series" rule,
// the media types each body may have. Walks the generated document rather than trusting it.
import { describe, expect, it } from "vitest";
import { appErrorCodes } from "../core/errors";
import { INT4_MAX, INT4_MIN } from "../schemas/common";
import { buildOpenApiDocument } from "./openapi";
import { importMediaTypes, resultsMediaTypes } from "./rest/media-type";

interface Schema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  additionalProperties?: Schema | boolean;
  anyOf?: Schema[];
  allOf?: Schema[];
  oneOf?: Schema[];
  required?: string[];
  not?: Schema;
  dependentRequired?: Record<string, string[]>;
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  description?: string;
  contentEncoding?: string;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
}
interface Operation {
  security?: unknown[];
  parameters?: { name: string; in: string; schema: Schema }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
}
interface Document {
  info: { description: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

const document = buildOpenApiDocument("http://test.local") as unknown as Document;
const resolve = (schema: Schema): Schema => (schema.$ref ? (document.components.schemas[schema.$ref.split("/").pop()!] as Schema) : schema);
const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, operation })),
);

/** Every schema inside `schema` with its path (".properties" and ".items" steps flattened). */
function walk(schema: Schema, path: string, visit: (schema: Schema, path: string) => void) {
  const resolved = resolve(schema);
  visit(resolved, path);
  for (const [name, property] of Object.entries(resolved.properties ?? {})) walk(property, `${path}.${name}`, visit);
  if (resolved.items) walk(resolved.items, `${path}[]`, visit);
  for (const part of [...(resolved.anyOf ?? []), ...(resolved.allOf ?? []), ...(resolved.oneOf ?? [])]) walk(part, path, visit);
}

const isType = (schema: Schema, type: string) => schema.type === type || (Array.isArray(schema.type) && schema.type.includes(type));

/** Integers stored in BigInt columns, which may go past int4 (up to 2^53, where JSON numbers stop being exact). */
const BIGINT_FIELDS = new Set(["ResultsUpload.runs[].metrics[].summary.n", "POST /api/v1/jobs/{id}/complete body.run.metrics[].summary.n"]);

describe("the OpenAPI document: errors", () => {
  it("has the operations of every REST route", () => {
    expect(operations.map((o) => o.name).sort()).toEqual([
      "GET /api/health",
      "GET /api/v1/batches/{id}",
      "GET /api/v1/experiments/{slugOrId}/badge/{metric}",
      "GET /api/v1/experiments/{slugOrId}/check",
      "GET /api/v1/experiments/{slugOrId}/comparison",
      "GET /api/v1/experiments/{slugOrId}/history",
      "GET /api/v1/openapi.json",
      "POST /api/v1/agents/heartbeat",
      "POST /api/v1/agents/register",
      "POST /api/v1/batches/{id}/cancel",
      "POST /api/v1/experiments/{slugOrId}/batches",
      "POST /api/v1/imports",
      "POST /api/v1/jobs/claim",
      "POST /api/v1/jobs/{id}/complete",
      "POST /api/v1/jobs/{id}/fail",
      "POST /api/v1/jobs/{id}/lease",
      "POST /api/v1/jobs/{id}/ready",
      "POST /api/v1/jobs/{id}/release",
      "POST /api/v1/results",
    ]);
  });

  it.each(operations)("$name documents each error its handler answers, with the error body", ({ name, operation }) => {
    const statuses = Object.keys(operation.responses);
    const expected = new Set<string>();
    const keyed = operation.security === undefined; // the document's default: an API key
    if (keyed) ["400", "401", "500"].forEach((s) => expected.add(s));
    if (operation.requestBody) ["400", "413", "415"].forEach((s) => expected.add(s));
    if (operation.parameters?.some((p) => p.in !== "header")) expected.add("400");
    // The experiment the operation names may not exist or not have the variant/metric asked for.
    if (["results", "imports", "comparison", "check", "badge"].some((part) => name.includes(part))) ["404", "422"].forEach((s) => expected.add(s));
    if (name.includes("history")) ["404"].forEach((s) => expected.add(s));
    // A batch may not exist; starting or cancelling one needs a key that may start runs.
    if (name.includes("batches")) expected.add("404");
    if (name.startsWith("POST") && name.includes("batches")) expected.add("403");
    if (operation.parameters?.some((p) => p.name === "Idempotency-Key")) expected.add("409");
    expect(statuses).toEqual(expect.arrayContaining([...expected]));
    for (const status of statuses.filter((s) => Number(s) >= 400 && s !== "503")) {
      const schema = resolve(operation.responses[status]!.content!["application/json"]!.schema);
      expect(schema.properties?.error?.properties?.code?.enum, `${name} ${status}`).toEqual(Object.keys(appErrorCodes));
    }
  });

  it("every operation that reads the database documents 503 with Retry-After, as the handlers answer while it is away", () => {
    for (const { name, operation } of operations.filter(({ name }) => !["GET /api/health", "GET /api/v1/openapi.json"].includes(name))) {
      const unavailable = operation.responses["503"] as { headers?: Record<string, { schema?: unknown }> } | undefined;
      expect(unavailable?.headers?.["Retry-After"]?.schema, name).toMatchObject({ type: "integer", minimum: 1 });
    }
    expect(document.info.description).toMatch(/503 `UNAVAILABLE` with a `Retry-After` header/);
  });

  it("says that a method a path does not list is answered 405 with Allow", () => {
    expect(document.info.description).toMatch(/405 with an `Allow` header/);
  });
});

describe("the OpenAPI document: constraints the server enforces", () => {
  const requestSchemas = operations.flatMap(({ name, operation }) => [
    ...Object.values(operation.requestBody?.content ?? {}).map((media) => ({
      name: name.includes("results") ? "ResultsUpload" : `${name} body`,
      schema: media.schema,
    })),
    ...(operation.parameters ?? []).map((parameter) => ({ name: `${name} ${parameter.in} ${parameter.name}`, schema: parameter.schema })),
  ]);

  it("every text field of a request is bounded: a maximum length, an enum, a format or a pattern, or base64 content", () => {
    const unbounded: string[] = [];
    for (const { name, schema } of requestSchemas) {
      if (name.endsWith(" body")) continue; // a tool's raw output: bounded by VERSUS_MAX_BODY_BYTES only
      walk(schema, name, (s, path) => {
        if (isType(s, "string") && s.maxLength === undefined && !s.enum && !s.format && !s.contentEncoding) unbounded.push(path);
      });
    }
    expect(unbounded).toEqual([]);
  });

  it("every integer field of a request has a minimum and a maximum that fit its column (int4, or the listed BigInt ones)", () => {
    const integers: { path: string; minimum?: number; maximum?: number }[] = [];
    for (const { name, schema } of requestSchemas) {
      walk(schema, name, (s, path) => {
        if (isType(s, "integer")) integers.push({ path, minimum: s.minimum, maximum: s.maximum });
      });
    }
    expect(integers.map((i) => i.path)).toContain("ResultsUpload.runs[].repetition");
    for (const { path, minimum, maximum } of integers) {
      expect(minimum, path).toBeDefined();
      expect(maximum, path).toBeDefined();
      if (BIGINT_FIELDS.has(path)) continue;
      expect(minimum!, path).toBeGreaterThanOrEqual(INT4_MIN);
      expect(maximum!, path).toBeLessThanOrEqual(INT4_MAX);
    }
  });

  it('a run\'s metric: "give samples, samplesBase64, summary, histogram, timeSeries or value", not samples and samplesBase64 both, histogram with histogramScale', () => {
    let metric: Schema | undefined;
    walk(document.components.schemas.ResultsUpload!, "ResultsUpload", (s, path) => {
      if (path === "ResultsUpload.runs[].metrics[]") metric ??= s;
    });
    expect(metric?.anyOf?.map((part) => part.required)).toEqual([["samples"], ["samplesBase64"], ["summary"], ["histogram"], ["timeSeries"], ["value"]]);
    expect(metric?.not?.required).toEqual(["samples", "samplesBase64"]);
    expect(metric?.dependentRequired).toEqual({ histogram: ["histogramScale"] });
    expect(metric?.required).toEqual(["key"]);
    expect(metric?.properties?.timeSeries?.anyOf?.map((part) => part.required)).toEqual([["offsetsMs"], ["intervalMs"]]);
  });

  it("a run's metric documents its value, and the summary the rules it is held to (on the upload and the agent's complete)", () => {
    for (const [name, at] of [
      ["ResultsUpload", "ResultsUpload.runs[].metrics[]"],
      ["POST /api/v1/jobs/{id}/complete body", "POST /api/v1/jobs/{id}/complete body.run.metrics[]"],
    ] as const) {
      const root = document.components.schemas[name] ?? requestSchemas.find((r) => r.name === name)?.schema;
      let metric: Schema | undefined;
      walk(root!, name, (s, path) => {
        if (path === at) metric ??= s;
      });
      expect(metric?.properties?.value?.description, at).toMatch(/contributes to comparisons/);
      expect(metric?.properties?.summary?.description, at).toContain("min ≤ mean ≤ max");
      expect(metric?.properties?.summary?.description, at).toContain("refused with 400 naming the field");
    }
  });

  it("the Idempotency-Key header and the comparison's path segment carry the limits the handlers check", () => {
    const header = requestSchemas.find((r) => r.name === "POST /api/v1/results header Idempotency-Key")?.schema;
    expect(header).toMatchObject({ maxLength: 200, pattern: "^[\\x21-\\x7e]+$" });
    const slugOrId = requestSchemas.find((r) => r.name === "GET /api/v1/experiments/{slugOrId}/comparison path slugOrId")?.schema;
    expect(slugOrId).toMatchObject({ minLength: 1, maxLength: 64 });
  });

  it("each body lists exactly the media types its handler accepts", () => {
    expect(Object.keys(document.paths["/api/v1/results"]!.post!.requestBody!.content)).toEqual([...resultsMediaTypes]);
    expect(Object.keys(document.paths["/api/v1/imports"]!.post!.requestBody!.content)).toEqual([...importMediaTypes]);
    for (const media of Object.values(document.paths["/api/v1/imports"]!.post!.requestBody!.content))
      expect(media.schema).toMatchObject({ type: "string", minLength: 1 });
  });
});
