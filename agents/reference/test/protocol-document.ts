// docs/openapi.json, the OpenAPI document the server generates from its own schemas (committed at
// the repository's root; the server's tests keep it current), for this agent's conformance
// checks: every body the agent sends to the fake job API is checked against the request schema,
// closed to properties the schema does not list (FakeApi.close); answers built from the response
// schemas (`sample`) go through the agent's own reading code (api/conformance.test.ts).
import fs from "node:fs";
import path from "node:path";
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020";
import { z } from "zod";

export type Schema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  additionalProperties?: Schema | boolean;
  items?: Schema;
  anyOf?: Schema[];
  enum?: unknown[];
  format?: string;
  required?: string[];
};

interface Operation {
  parameters?: { name: string; in: string }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
}

interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

export const documentFile = path.resolve(import.meta.dirname, "../../../docs/openapi.json");
const document = JSON.parse(fs.readFileSync(documentFile, "utf8")) as Document;

const ajv = new Ajv2020({ allErrors: true, strict: false });
// The server's own reading of date-time (ISO 8601 with an offset); Ajv knows no formats by itself.
ajv.addFormat("date-time", { type: "string", validate: (text: string) => z.iso.datetime({ offset: true }).safeParse(text).success });
const validators = new Map<string, ValidateFunction | null>();

function operation(template: string): Operation {
  const found = document.paths[template]?.post;
  if (!found) throw new Error(`${documentFile} has no POST ${template} (it has ${Object.keys(document.paths).join(", ")})`);
  return found;
}

/** The document's path that a URL path matches ("/api/v1/jobs/job1/lease" → "/api/v1/jobs/{id}/lease"). */
export function pathOf(urlPath: string): string | undefined {
  return Object.keys(document.paths).find((template) =>
    new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+")}$`).test(urlPath),
  );
}

export function responseSchema(template: string, status: string): Schema {
  const response = operation(template).responses[status];
  const schema = response?.content?.["application/json"]?.schema;
  if (!schema)
    throw new Error(`POST ${template} does not answer ${status} with a JSON body (it answers ${Object.keys(operation(template).responses).join(", ")})`);
  return schema;
}

/** A copy of a schema with its $refs pointing at $defs and every object that lists properties closed to others. */
function closed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(closed);
  if (value === null || typeof value !== "object") return value;
  const copy: Record<string, unknown> = Object.fromEntries(Object.entries(value).map(([key, item]) => [key, closed(item)]));
  if (typeof copy.$ref === "string") copy.$ref = copy.$ref.replace("#/components/schemas/", "#/$defs/");
  if ("properties" in copy && !("additionalProperties" in copy)) copy.additionalProperties = false;
  return copy;
}

function requestValidator(template: string): ValidateFunction | null {
  if (!validators.has(template)) {
    const schema = operation(template).requestBody?.content["application/json"]?.schema;
    const defs = Object.fromEntries(Object.entries(document.components.schemas).map(([name, component]) => [name, closed(component)]));
    validators.set(template, schema ? ajv.compile({ ...(closed(schema) as object), $defs: defs }) : null);
  }
  return validators.get(template)!;
}

const describeError = (error: ErrorObject) =>
  `${error.instancePath || "/"}: ${error.message}${error.keyword === "additionalProperties" ? ` ("${String(error.params.additionalProperty)}")` : ""}${error.keyword === "enum" ? ` (${JSON.stringify(error.params.allowedValues)})` : ""}`;

/**
 * What the server's schema has against a request the agent sent: required fields, types, enums,
 * lengths, formats, properties the schema does not list (the server ignores those, so a misspelt
 * optional field would be dropped without a word), and query parameters it does not know. An
 * operation without a body takes none (or an empty object).
 */
export function requestProblems(urlPath: string, search: string, body: unknown): string[] {
  const template = pathOf(urlPath);
  if (!template) return [`POST ${urlPath}: ${documentFile} has no such path`];
  const problems: string[] = [];
  const known = (operation(template).parameters ?? []).filter((parameter) => parameter.in === "query").map((parameter) => parameter.name);
  for (const name of new URLSearchParams(search).keys())
    if (!known.includes(name)) problems.push(`POST ${urlPath}: no query parameter "${name}" (the document has ${known.join(", ") || "none"})`);
  const validate = requestValidator(template);
  if (!validate) {
    const empty = body === undefined || (typeof body === "object" && body !== null && Object.keys(body).length === 0);
    if (!empty) problems.push(`POST ${template} takes no body, but the agent sent ${JSON.stringify(body)}`);
  } else if (!validate(body)) {
    problems.push(...(validate.errors ?? []).map((error) => `POST ${urlPath}: ${describeError(error)}`));
  }
  return problems;
}

/** Follows a $ref, and of a nullable schema (anyOf with a {"type": "null"} branch) takes the other branch. */
export function resolve(schema: Schema): Schema {
  if (schema.$ref) {
    const name = schema.$ref.replace("#/components/schemas/", "");
    const component = document.components.schemas[name];
    if (!component) throw new Error(`${documentFile} has no schema ${name}`);
    return resolve(component);
  }
  const branches = schema.anyOf ?? [];
  const other = branches.filter((branch) => branch.type !== "null");
  if (branches.length === 2 && other.length === 1) return resolve(other[0]!);
  return schema;
}

/**
 * A value of the schema with every property it lists, so that code reading it reads everything
 * it reads: strings are their property's name (or the first of an enum, or a timestamp), numbers
 * 3, booleans true (not the usual default), arrays one item.
 */
export function sample(schema: Schema, name = "value"): unknown {
  const resolved = resolve(schema);
  if (resolved.enum) return resolved.enum[0];
  const type = resolved.type ?? (resolved.properties ? "object" : undefined);
  if (type === "object") return Object.fromEntries(Object.entries(resolved.properties ?? {}).map(([key, property]) => [key, sample(property, key)]));
  if (type === "array") return [sample(resolved.items ?? {}, name)];
  if (type === "string") return resolved.format === "date-time" ? "2030-01-02T03:04:05.000Z" : name;
  if (type === "integer" || type === "number") return 3;
  if (type === "boolean") return true;
  return {};
}

/**
 * Where a JSON path into a value of the schema (["job", "metrics", "0", "key"]; array indices
 * step into items) leaves it; undefined when the schema has it.
 */
export function missing(schema: Schema, steps: readonly string[]): string | undefined {
  let at = resolve(schema);
  const walked: string[] = [];
  for (const step of steps) {
    if (at.items && /^\d+$/.test(step)) at = resolve(at.items);
    else if (at.properties?.[step]) at = resolve(at.properties[step]);
    else if (typeof at.additionalProperties === "object") at = resolve(at.additionalProperties);
    else
      return `${walked.join(".") || "the answer"} has no "${step}" (it has ${Object.keys(at.properties ?? {})
        .sort()
        .join(", ")})`;
    walked.push(step);
  }
  return undefined;
}
