// PostgreSQL's jsonb keeps an object's keys sorted (by length, then bytes), not in the order
// they were written; but the order of a workload's settings is the agent author's ("compress"
// before "level"), and the variant form draws its fields in it. So a stored advert carries the
// order of its settings schema's properties in a list beside them, and reading puts it back.
import type { TWorkloadAdvert } from "../schemas/workload";

const ORDER_KEY = "x-versus-property-order";

/** The advert as stored: its settings' property order kept in a list. */
export function storedAdvert(advert: TWorkloadAdvert): TWorkloadAdvert {
  const properties = advert.settingsSchema.properties;
  if (typeof properties !== "object" || properties === null || Array.isArray(properties)) return advert;
  return { ...advert, settingsSchema: { ...advert.settingsSchema, [ORDER_KEY]: Object.keys(properties) } };
}

/** The advert as its agent wrote it: properties in their order again, the list removed. */
export function readAdvert(advert: TWorkloadAdvert): TWorkloadAdvert {
  const { [ORDER_KEY]: order, ...schema } = advert.settingsSchema;
  const properties = schema.properties as Record<string, unknown> | undefined;
  if (!Array.isArray(order) || typeof properties !== "object" || properties === null) return { ...advert, settingsSchema: schema };
  // Listed keys first, in their order; anything not listed (there should be none) after them.
  const keys = [...order.filter((key): key is string => typeof key === "string" && key in properties), ...Object.keys(properties).filter((key) => !order.includes(key))];
  return { ...advert, settingsSchema: { ...schema, properties: Object.fromEntries(keys.map((key) => [key, properties[key]])) } };
}
