// PostgreSQL's jsonb keeps an object's keys sorted (by length, then bytes), not in the order
// they were written; but the order of a workload's settings is the agent author's ("compress"
// before "level", "responseBytes" before "delayMs"), and the variant form draws its fields in it.
// So a stored advert carries, in every object schema of its settings (the top level and nested
// ones), the order of its properties in a list beside them, and reading puts it back.
import type { TWorkloadAdvert } from "../schemas/workload";

const ORDER_KEY = "x-versus-property-order";

type JsonObject = Record<string, unknown>;
const isObject = (value: unknown): value is JsonObject => typeof value === "object" && value !== null && !Array.isArray(value);

/** A schema with its (and its properties') property order written down. */
function withOrder(schema: JsonObject): JsonObject {
  const properties = schema.properties;
  if (!isObject(properties)) return schema;
  const nested = Object.fromEntries(Object.entries(properties).map(([key, property]) => [key, isObject(property) ? withOrder(property) : property]));
  return { ...schema, properties: nested, [ORDER_KEY]: Object.keys(properties) };
}

/** A schema with its properties in their written order again, the lists removed. */
function inOrder(stored: JsonObject): JsonObject {
  const { [ORDER_KEY]: order, ...schema } = stored;
  const properties = schema.properties;
  if (!isObject(properties)) return schema;
  const listed = Array.isArray(order) ? order.filter((key): key is string => typeof key === "string" && key in properties) : [];
  // Listed keys first, in their order; anything not listed (there should be none) after them.
  const keys = [...listed, ...Object.keys(properties).filter((key) => !listed.includes(key))];
  return { ...schema, properties: Object.fromEntries(keys.map((key) => [key, isObject(properties[key]) ? inOrder(properties[key]) : properties[key]])) };
}

/** The advert as stored: its settings' property order kept in lists. */
export function storedAdvert(advert: TWorkloadAdvert): TWorkloadAdvert {
  return { ...advert, settingsSchema: withOrder(advert.settingsSchema) };
}

/** The advert as its agent wrote it: properties in their order again, the lists removed. */
export function readAdvert(advert: TWorkloadAdvert): TWorkloadAdvert {
  return { ...advert, settingsSchema: inOrder(advert.settingsSchema) };
}
