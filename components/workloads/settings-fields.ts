// How a workload's settings JSON Schema (as an agent advertises it) becomes form fields, and how
// a field's text becomes a setting's value and back. The form covers what the built-in agents
// describe: text, numbers, whole numbers, yes/no, a choice of values, lists of those, objects of
// their own (drawn as a group of fields), lists of such objects (a group per item, e.g. the
// targets an agent starts) and name → value maps (e.g. HTTP headers). A property it cannot draw
// (a choice of types) is edited as JSON in its own small box, so one odd setting never sends the
// whole form to the raw JSON editor.

export type ScalarKind = "string" | "number" | "integer" | "boolean" | "enum";

/** A single value's input: its kind, bounds, choices and unit. */
export interface ScalarSpec {
  kind: ScalarKind;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  /** The allowed values of an enum. */
  options?: (string | number | boolean)[];
  /** The schema's "x-unit": what a number is counted in (ms, B, req/s …). */
  unit?: string;
  /**
   * A text's usual values, from the schema's "examples" (e.g. the JCE providers an agent ships):
   * offered as the user types, while any other text stays allowed (a plugin's provider).
   */
  suggestions?: string[];
}

interface FieldBase {
  key: string;
  /** The schema's title, else the key. */
  label: string;
  description: string;
  required: boolean;
  /** The schema's default, when it gives one: what the agent uses when the setting is left out. */
  default?: unknown;
}

export type ScalarField = FieldBase & ScalarSpec;
export type ListField = FieldBase & { kind: "list"; item: ScalarSpec; minItems?: number; maxItems?: number };
/** An object whose names are the user's (additionalProperties with a schema), e.g. headers. */
export type MapField = FieldBase & { kind: "map"; value: ScalarSpec };
export type ObjectField = FieldBase & { kind: "object"; fields: SettingField[] };
/** A list of objects of one shape: each item drawn as a group of its fields. */
export type RowsField = FieldBase & { kind: "rows"; fields: SettingField[]; maxItems?: number };
/** A setting the form cannot draw: edited as JSON on its own; `reason` says why. */
export type JsonField = FieldBase & { kind: "json"; reason: string };

export type SettingField = ScalarField | ListField | MapField | ObjectField | RowsField | JsonField;

export type SettingsForm = { fields: SettingField[] } | { unsupported: string };

type JsonObject = Record<string, unknown>;

export const isObject = (value: unknown): value is JsonObject => typeof value === "object" && value !== null && !Array.isArray(value);
/** A bound worth showing: Zod writes the safe-integer range into every whole number's schema. */
const numberOr = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isFinite(value) && Math.abs(value) < Number.MAX_SAFE_INTEGER ? value : undefined;

const scalarKinds: ScalarKind[] = ["string", "number", "integer", "boolean", "enum"];
export const isScalar = (field: SettingField): field is ScalarField => (scalarKinds as string[]).includes(field.kind);

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

function boundsOf(schema: JsonObject) {
  return {
    ...(numberOr(schema.minimum) !== undefined ? { minimum: numberOr(schema.minimum) } : {}),
    ...(numberOr(schema.maximum) !== undefined ? { maximum: numberOr(schema.maximum) } : {}),
    ...(numberOr(schema.exclusiveMinimum) !== undefined ? { exclusiveMinimum: numberOr(schema.exclusiveMinimum) } : {}),
    ...(numberOr(schema.exclusiveMaximum) !== undefined ? { exclusiveMaximum: numberOr(schema.exclusiveMaximum) } : {}),
  };
}

/** One value's input, or why a value of this schema is no single input. */
function scalarOf(raw: unknown): ScalarSpec | string {
  if (!isObject(raw)) return "it has no schema of its own";
  const schema = withoutNull(raw);
  const unit = typeof schema["x-unit"] === "string" && schema["x-unit"].trim() ? { unit: schema["x-unit"].trim() } : {};
  if (Array.isArray(schema.enum)) {
    const options = schema.enum.filter((option): option is string | number | boolean => ["string", "number", "boolean"].includes(typeof option));
    if (options.length === 0 || options.length !== schema.enum.length) return "it allows values the form cannot offer";
    return { kind: "enum", options, ...unit };
  }
  if ("const" in schema) return "it has one fixed value";
  const type = singleType(schema);
  switch (type) {
    case "string": {
      const examples = Array.isArray(schema.examples)
        ? schema.examples.filter((example): example is string => typeof example === "string" && example !== "")
        : [];
      return { kind: type, ...unit, ...(examples.length ? { suggestions: examples } : {}) };
    }
    case "boolean":
      return { kind: type, ...unit };
    case "number":
    case "integer":
      return { kind: type, ...boundsOf(schema), ...unit };
    case undefined:
      return "it has no single type";
    default:
      return `it is ${type === "array" ? "a list" : type === "object" ? "an object" : `of type ${type}`}`;
  }
}

/** The field for one property (a JSON box when the form cannot draw it). */
function fieldOf(key: string, raw: unknown, required: boolean, depth: number): SettingField {
  const property = isObject(raw) ? withoutNull(raw) : {};
  const base: FieldBase = {
    key,
    label: typeof property.title === "string" && property.title.trim() ? property.title.trim() : key,
    description: typeof property.description === "string" ? property.description : "",
    required,
    ...("default" in property ? { default: property.default } : {}),
  };
  const asJson = (reason: string): JsonField => ({ ...base, kind: "json", reason });
  if (!isObject(raw)) return asJson("the agent does not describe it");
  const type = singleType(property);
  if (type === "array" && !Array.isArray(property.enum)) {
    const items = isObject(property.items) ? withoutNull(property.items) : {};
    if (singleType(items) === "object" && isObject(items.properties) && Object.keys(items.properties).length > 0 && depth < 3) {
      return {
        ...base,
        kind: "rows",
        fields: objectFields(items, depth + 1),
        ...(numberOr(property.maxItems) !== undefined ? { maxItems: numberOr(property.maxItems) } : {}),
      };
    }
    const item = scalarOf(property.items);
    if (typeof item === "string" || item.kind === "boolean") return asJson(`its items: ${typeof item === "string" ? item : "yes/no values"}`);
    const counts = {
      ...(numberOr(property.minItems) !== undefined ? { minItems: numberOr(property.minItems) } : {}),
      ...(numberOr(property.maxItems) !== undefined ? { maxItems: numberOr(property.maxItems) } : {}),
    };
    return { ...base, kind: "list", item, ...counts };
  }
  if (type === "object" && !Array.isArray(property.enum)) {
    const properties = isObject(property.properties) ? property.properties : {};
    if (Object.keys(properties).length > 0 && depth < 3) return { ...base, kind: "object", fields: objectFields(property, depth + 1) };
    if (isObject(property.additionalProperties)) {
      const value = scalarOf(property.additionalProperties);
      if (typeof value !== "string" && value.kind !== "boolean") return { ...base, kind: "map", value };
      return asJson(`its values: ${typeof value === "string" ? value : "yes/no values"}`);
    }
    return asJson("its names and values are free-form");
  }
  const scalar = scalarOf(property);
  return typeof scalar === "string" ? asJson(scalar) : { ...base, ...scalar };
}

/** The form for a settings schema, or why the raw JSON editor is the only one. */
export function settingsForm(schema: unknown): SettingsForm {
  if (!isObject(schema) || Object.keys(schema).filter((key) => !key.startsWith("$")).length === 0) {
    return { unsupported: "the agent does not describe these settings" };
  }
  if (singleType(schema) !== "object" && !isObject(schema.properties)) return { unsupported: "the settings are not an object" };
  const properties = isObject(schema.properties) ? schema.properties : {};
  if (Object.keys(properties).length === 0) return { unsupported: "the workload has no settings to fill in" };
  // Rules across settings (anyOf, not, dependentSchemas: "command or shell") are not fields;
  // the check beside the form (settingsProblems) and the agent enforce them.
  return { fields: objectFields(schema, 0) };
}

/** The fields of an object schema's properties, each marked required as the schema says. */
function objectFields(schema: JsonObject, depth: number): SettingField[] {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((key): key is string => typeof key === "string") : []);
  return Object.entries(properties).map(([key, property]) => fieldOf(key, property, required.has(key), depth));
}

/** A value as its input shows it; "" when it is left out. */
export function fieldText(spec: ScalarSpec, value: unknown): string {
  if (value === undefined || value === null) return "";
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

/** The value an input's text stands for (undefined: leave it out), or what is wrong with it. */
export function parseFieldText(spec: ScalarSpec, text: string): { value: unknown } | { error: string } {
  const trimmed = text.trim();
  if (spec.kind === "string") return { value: text === "" ? undefined : text };
  if (trimmed === "") return { value: undefined };
  switch (spec.kind) {
    case "boolean":
      if (trimmed === "true" || trimmed === "false") return { value: trimmed === "true" };
      return { error: "choose yes or no" };
    case "enum": {
      const option = spec.options?.find((candidate) => String(candidate) === trimmed);
      return option === undefined ? { error: `choose one of ${spec.options?.map(String).join(", ")}` } : { value: option };
    }
    case "number":
    case "integer":
      return parseNumber(trimmed, spec.kind === "integer");
  }
}

function parseNumber(text: string, whole: boolean): { value: number } | { error: string } {
  const value = Number(text);
  if (!Number.isFinite(value)) return { error: "enter a number" };
  if (whole && !Number.isInteger(value)) return { error: "enter a whole number" };
  return { value };
}

/** JSON text as a setting's value (empty: left out), or what is wrong with it. */
export function parseJsonText(text: string): { value: unknown } | { error: string } {
  if (text.trim() === "") return { value: undefined };
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (error) {
    return { error: `not valid JSON (${error instanceof Error ? error.message : String(error)})` };
  }
}

/**
 * Settings with the value at `path` replaced; undefined removes it (the agent's default applies),
 * and so does an empty object, list or map: an object left empty is left out. Kept in place when
 * the setting is there already, so the stored JSON keeps its order.
 */
export function withSetting(settings: JsonObject, path: string | string[], value: unknown): JsonObject {
  const [key, ...rest] = typeof path === "string" ? [path] : path;
  if (key === undefined) return settings;
  let next = value;
  if (rest.length) next = withSetting(isObject(settings[key]) ? settings[key] : {}, rest, value);
  const empty = next === undefined || (Array.isArray(next) ? next.length === 0 : isObject(next) && Object.keys(next).length === 0);
  if (empty) return Object.fromEntries(Object.entries(settings).filter(([name]) => name !== key));
  return key in settings ? Object.fromEntries(Object.entries(settings).map(([name, old]) => [name, name === key ? next : old])) : { ...settings, [key]: next };
}

/** "10,000": bounds are read, not typed. */
const figure = (value: number | undefined) => (value === undefined ? undefined : value.toLocaleString("en-US", { maximumFractionDigits: 20 }));

/** "1 to 9 ms", "at least 0", "more than 0 s". */
export function boundsHint(spec: ScalarSpec): string {
  const low = figure(spec.minimum ?? spec.exclusiveMinimum);
  const high = figure(spec.maximum ?? spec.exclusiveMaximum);
  const unit = spec.unit ? ` ${spec.unit}` : "";
  if (low !== undefined && high !== undefined)
    return `${spec.exclusiveMinimum !== undefined ? ">" : ""}${low} to ${spec.exclusiveMaximum !== undefined ? "<" : ""}${high}${unit}`;
  if (low !== undefined) return `${spec.exclusiveMinimum !== undefined ? "more than" : "at least"} ${low}${unit}`;
  if (high !== undefined) return `${spec.exclusiveMaximum !== undefined ? "less than" : "at most"} ${high}${unit}`;
  return "";
}

/** A default as the hint shows it: "default 1000 ms", "default GET", "default 0, 1". */
export function defaultText(field: SettingField): string {
  const value = field.default;
  if (value === undefined || value === null) return "";
  if (Array.isArray(value)) return value.length ? `default ${value.map(String).join(", ")}` : "";
  if (isObject(value)) return Object.keys(value).length ? `default ${JSON.stringify(value)}` : "";
  const unit = "unit" in field && field.unit ? ` ${field.unit}` : "";
  if (typeof value === "boolean") return `default ${value ? "yes" : "no"}`;
  return `default ${String(value)}${unit}`;
}

/** The hint under a field: its description, bounds and default. */
export function fieldHint(field: SettingField): string {
  const bounds = isScalar(field) ? boundsHint(field) : field.kind === "list" ? (boundsHint(field.item) ? `each ${boundsHint(field.item)}` : "") : "";
  // A choice shows its default as its first option ("default (yes)"), not again in the hint.
  const chosen = field.kind === "boolean" || field.kind === "enum";
  const parts = [field.description, bounds, field.kind === "json" ? `edited as JSON: ${field.reason}` : "", chosen ? "" : defaultText(field)];
  return parts.filter(Boolean).join(" · ");
}

/**
 * A short example of this workload's settings for the raw JSON editor's hint: its first
 * settings with defaults (or its required ones), e.g. {"method": "GET", "connections": 10}.
 */
export function jsonExample(schema: unknown): string {
  const properties = isObject(schema) && isObject(schema.properties) ? schema.properties : {};
  const required = new Set(isObject(schema) && Array.isArray(schema.required) ? schema.required : []);
  const example: JsonObject = {};
  for (const [key, property] of Object.entries(properties)) {
    if (Object.keys(example).length >= 2) break;
    if (!isObject(property)) continue;
    const value =
      property.default ?? (required.has(key) ? (Array.isArray(property.enum) ? property.enum[0] : property.type === "string" ? "…" : undefined) : undefined);
    if (value !== undefined && !(isObject(value) && Object.keys(value).length === 0) && !(Array.isArray(value) && value.length === 0)) example[key] = value;
  }
  return `{${Object.entries(example)
    .map(([key, value]) => `${JSON.stringify(key)}: ${JSON.stringify(value)}`)
    .join(", ")}}`;
}
