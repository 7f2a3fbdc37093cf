// How a workload's settings JSON Schema (as an agent advertises it) becomes form fields, and how
// a field's text becomes a setting's value and back. The form covers the flat objects agents
// describe (strings, numbers, whole numbers, yes/no, a choice of values, lists of numbers or
// strings); anything else (nested objects, lists of objects, schemas combined with anyOf…) is
// edited as raw JSON, and `unsupported` says why.

export type SettingKind = "string" | "number" | "integer" | "boolean" | "enum" | "number-list" | "integer-list" | "string-list";

export interface SettingField {
  key: string;
  kind: SettingKind;
  /** The schema's title, else the key. */
  label: string;
  description: string;
  required: boolean;
  /** The schema's default, when it gives one: what the agent uses when the setting is left out. */
  default?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  /** The allowed values of an enum. */
  options?: (string | number | boolean)[];
}

export type SettingsForm = { fields: SettingField[] } | { unsupported: string };

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject => typeof value === "object" && value !== null && !Array.isArray(value);
/** A bound worth showing: Zod writes the safe-integer range into every whole number's schema. */
const numberOr = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isFinite(value) && Math.abs(value) < Number.MAX_SAFE_INTEGER ? value : undefined;

/** The one type a property allows, ignoring "null" (a nullable setting is edited like the plain one). */
function singleType(schema: JsonObject): string | undefined {
  const type = schema.type;
  if (typeof type === "string") return type;
  if (Array.isArray(type)) {
    const types = type.filter((t) => t !== "null");
    return types.length === 1 && typeof types[0] === "string" ? types[0] : undefined;
  }
  return undefined;
}

/**
 * `{anyOf: [X, {type: "null"}]}` (how Zod writes a nullable setting) as X with the outer title,
 * description and default; any other property as it is.
 */
function withoutNull(property: JsonObject): JsonObject {
  if (!Array.isArray(property.anyOf)) return property;
  const others = property.anyOf.filter((option) => !(isObject(option) && option.type === "null"));
  if (others.length !== 1 || !isObject(others[0]) || others.length === property.anyOf.length) return property;
  const { anyOf: _anyOf, ...outer } = property;
  return { ...others[0], ...outer };
}

/** The field for one property, or why it cannot be one. */
function fieldOf(key: string, raw: unknown, required: boolean): SettingField | string {
  if (!isObject(raw)) return `setting "${key}" has no schema of its own`;
  const property = withoutNull(raw);
  const base = {
    key,
    label: typeof property.title === "string" && property.title.trim() ? property.title.trim() : key,
    description: typeof property.description === "string" ? property.description : "",
    required,
    ...("default" in property ? { default: property.default } : {}),
  };
  if (Array.isArray(property.enum)) {
    const options = property.enum.filter((option): option is string | number | boolean => ["string", "number", "boolean"].includes(typeof option));
    if (options.length === 0 || options.length !== property.enum.length) return `setting "${key}" allows values the form cannot offer`;
    return { ...base, kind: "enum", options };
  }
  if ("const" in property) return `setting "${key}" has one fixed value`;
  const type = singleType(property);
  const bounds = {
    ...(numberOr(property.minimum) !== undefined ? { minimum: numberOr(property.minimum) } : {}),
    ...(numberOr(property.maximum) !== undefined ? { maximum: numberOr(property.maximum) } : {}),
    ...(numberOr(property.exclusiveMinimum) !== undefined ? { exclusiveMinimum: numberOr(property.exclusiveMinimum) } : {}),
    ...(numberOr(property.exclusiveMaximum) !== undefined ? { exclusiveMaximum: numberOr(property.exclusiveMaximum) } : {}),
  };
  switch (type) {
    case "string":
      return { ...base, kind: "string" };
    case "boolean":
      return { ...base, kind: "boolean" };
    case "number":
    case "integer":
      return { ...base, kind: type, ...bounds };
    case "array": {
      const items = isObject(property.items) ? property.items : undefined;
      const itemType = items ? singleType(items) : undefined;
      if (!items || Array.isArray(items.enum) || (itemType !== "string" && itemType !== "number" && itemType !== "integer")) {
        return `setting "${key}" is a list of things the form cannot edit`;
      }
      const itemBounds = {
        ...(numberOr(items.minimum) !== undefined ? { minimum: numberOr(items.minimum) } : {}),
        ...(numberOr(items.maximum) !== undefined ? { maximum: numberOr(items.maximum) } : {}),
      };
      return { ...base, kind: `${itemType}-list`, ...(itemType === "string" ? {} : itemBounds) };
    }
    case "object":
      return `setting "${key}" is an object of its own`;
    default:
      return `setting "${key}" has no single type`;
  }
}

/** The form for a settings schema, or why the raw JSON editor is the only one. */
export function settingsForm(schema: unknown): SettingsForm {
  if (!isObject(schema) || Object.keys(schema).filter((key) => !key.startsWith("$")).length === 0) {
    return { unsupported: "the agent does not describe these settings" };
  }
  for (const combinator of ["anyOf", "oneOf", "allOf", "$ref", "if"]) {
    if (combinator in schema) return { unsupported: `the settings schema uses ${combinator}` };
  }
  if (singleType(schema) !== "object" && !isObject(schema.properties)) return { unsupported: "the settings are not an object" };
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((key): key is string => typeof key === "string") : []);
  const fields: SettingField[] = [];
  for (const [key, property] of Object.entries(properties)) {
    const field = fieldOf(key, property, required.has(key));
    if (typeof field === "string") return { unsupported: field };
    fields.push(field);
  }
  if (fields.length === 0) return { unsupported: "the workload has no settings to fill in" };
  return { fields };
}

/** A setting's value as its input shows it; "" when it is left out. */
export function fieldText(field: SettingField, value: unknown): string {
  if (value === undefined || value === null) return "";
  if (field.kind.endsWith("-list")) return Array.isArray(value) ? value.map(String).join(", ") : String(value);
  return String(value);
}

/** The value an input's text stands for (undefined: leave the setting out), or what is wrong with it. */
export function parseFieldText(field: SettingField, text: string): { value: unknown } | { error: string } {
  const trimmed = text.trim();
  if (field.kind === "string") return { value: text === "" ? undefined : text };
  if (trimmed === "") return { value: undefined };
  switch (field.kind) {
    case "boolean":
      if (trimmed === "true" || trimmed === "false") return { value: trimmed === "true" };
      return { error: "choose yes or no" };
    case "enum": {
      const option = field.options?.find((candidate) => String(candidate) === trimmed);
      return option === undefined ? { error: `choose one of ${field.options?.map(String).join(", ")}` } : { value: option };
    }
    case "number":
    case "integer":
      return parseNumber(trimmed, field.kind === "integer");
    case "string-list":
      return { value: splitList(text) };
    case "number-list":
    case "integer-list": {
      const values: number[] = [];
      for (const [index, item] of splitList(text).entries()) {
        const parsed = parseNumber(item, field.kind === "integer-list");
        if ("error" in parsed) return { error: `item ${index + 1} (“${item}”): ${parsed.error}` };
        values.push(parsed.value);
      }
      return { value: values };
    }
  }
}

function splitList(text: string): string[] {
  return text
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "");
}

function parseNumber(text: string, whole: boolean): { value: number } | { error: string } {
  const value = Number(text);
  if (!Number.isFinite(value)) return { error: "enter a number" };
  if (whole && !Number.isInteger(value)) return { error: "enter a whole number" };
  return { value };
}

/** Settings with one value replaced; undefined removes the setting (the agent's default applies). */
export function withSetting(settings: JsonObject, key: string, value: unknown): JsonObject {
  if (value === undefined) return Object.fromEntries(Object.entries(settings).filter(([name]) => name !== key));
  // In place when the setting is there already, so the stored JSON keeps its order.
  return key in settings ? Object.fromEntries(Object.entries(settings).map(([name, old]) => [name, name === key ? value : old])) : { ...settings, [key]: value };
}
