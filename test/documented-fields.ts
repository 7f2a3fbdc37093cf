// Whether an answer carries only what the OpenAPI document says it carries. The document is made
// from the answer's Zod schema (server/api/openapi.ts), where every object is closed
// (additionalProperties: false); the handlers build their answers by hand, so a field added to an
// answer but not to its schema breaks the document without breaking a type.
import type { z } from "zod";
import { z as zod } from "zod";

type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  $defs?: Record<string, JsonSchema>;
};

/** The paths ("metrics.0.aggregation") of fields in `value` that `schema`, as the document shows it, does not list. */
export function undocumentedFields(schema: z.ZodType, value: unknown): string[] {
  const root = zod.toJSONSchema(schema, { io: "output", unrepresentable: "any" }) as JsonSchema;
  const resolve = (node: JsonSchema): JsonSchema => (node.$ref ? resolve(root.$defs?.[node.$ref.replace("#/$defs/", "")] ?? {}) : node);

  const walk = (node: JsonSchema, at: unknown, path: string[]): string[] => {
    const schemaNode = resolve(node);
    const branches = schemaNode.anyOf ?? schemaNode.oneOf;
    if (branches) {
      // The branch that fits best: one that lists everything, else the one with least left over.
      const found = branches.map((branch) => walk(branch, at, path));
      return found.reduce((best, next) => (next.length < best.length ? next : best));
    }
    const problems = (schemaNode.allOf ?? []).flatMap((part) => walk(part, at, path));
    if (Array.isArray(at))
      return [...problems, ...(schemaNode.items ? at.flatMap((item, i) => walk(schemaNode.items as JsonSchema, item, [...path, String(i)])) : [])];
    if (at && typeof at === "object" && schemaNode.properties) {
      for (const [key, child] of Object.entries(at)) {
        const listed = schemaNode.properties[key];
        if (listed) problems.push(...walk(listed, child, [...path, key]));
        else if (schemaNode.additionalProperties === false) problems.push([...path, key].join("."));
        else if (typeof schemaNode.additionalProperties === "object") problems.push(...walk(schemaNode.additionalProperties, child, [...path, key]));
      }
    }
    return problems;
  };
  return walk(root, value, []);
}
