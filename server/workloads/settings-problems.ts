// Checks a variant's settings against the JSON Schema a workload's agents advertise, worded for a
// person: in the variant form as the settings are typed (the same check the server runs when an
// experiment is saved or run, see workload-fit.ts), so a wrong setting is caught before an agent
// runs the job. Zod converts the JSON Schema.
import { z } from "zod";

/**
 * Problems by setting: its path inside the settings, dot-separated ("level", "selfTarget.delayMs",
 * "headers.X-Trace"); "" for the settings object as a whole. A list's item problems are on the
 * list ("item 2: must be a number").
 */
export type SettingsProblems = Record<string, string>;

type JsonObject = Record<string, unknown>;
const isObject = (value: unknown): value is JsonObject => typeof value === "object" && value !== null && !Array.isArray(value);

/** `notTogether`: the top level's `"not": {"required": [a, b]}` ("a or b, never both"), which Zod cannot convert: checked here. */
type Converted = { schema: z.ZodType; notTogether: string[] } | { unchecked: string };

const converted = new WeakMap<object, Converted>();

function convert(schema: Record<string, unknown>): Converted {
  let entry = converted.get(schema);
  if (!entry) {
    try {
      const { not, ...rest } = schema;
      const notTogether = isObject(not) && Array.isArray(not.required) && Object.keys(not).every((key) => key === "required" || key === "description");
      entry = {
        schema: z.fromJSONSchema((notTogether ? rest : schema) as Parameters<typeof z.fromJSONSchema>[0]),
        notTogether: notTogether ? (not.required as unknown[]).map(String) : [],
      };
    } catch (error) {
      // A schema Zod cannot read (an unknown $ref, say): the agent still checks the settings.
      entry = { unchecked: error instanceof Error ? error.message : String(error) };
    }
    converted.set(schema, entry);
  }
  return entry;
}

const typeNames: Record<string, string> = {
  number: "a number",
  int: "a whole number",
  boolean: "true or false",
  string: "text",
  array: "a list",
  object: "an object",
};

function quantity(count: number, what: string): string {
  return `${count} ${what}${count === 1 ? "" : "s"}`;
}

/** The properties the schema names for the object at `path` (in its order); [] where it names none. */
export function propertiesAt(schema: unknown, path: PropertyKey[]): string[] {
  let node = schema;
  for (const step of path) {
    if (!isObject(node)) return [];
    const properties = isObject(node.properties) ? node.properties : {};
    node = properties[String(step)];
  }
  return isObject(node) && isObject(node.properties) ? Object.keys(node.properties) : [];
}

/** "unknown setting "colour"; valid settings are sizeBytes, compress, …" */
export function unknownSettingsMessage(unknown: string[], valid: string[]): string {
  const names = unknown.map((key) => `"${key}"`).join(", ");
  const head = `unknown ${unknown.length === 1 ? "setting" : "settings"} ${names}`;
  return valid.length ? `${head}; valid settings are ${valid.join(", ")}` : `${head}: the workload takes no settings here`;
}

/** One issue worded for the form. */
function wording(issue: z.core.$ZodRawIssue, schema: unknown): string {
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined) return "required";
      return `must be ${typeNames[issue.expected] ?? issue.expected}`;
    case "too_small": {
      const min = Number(issue.minimum);
      if (issue.origin === "array") return `needs at least ${quantity(min, "item")}`;
      if (issue.origin === "string") return `needs at least ${quantity(min, "character")}`;
      return issue.inclusive ? `must be at least ${min}` : `must be more than ${min}`;
    }
    case "too_big": {
      const max = Number(issue.maximum);
      if (issue.origin === "array") return `takes at most ${quantity(max, "item")}`;
      if (issue.origin === "string") return `takes at most ${quantity(max, "character")}`;
      return issue.inclusive ? `must be at most ${max}` : `must be less than ${max}`;
    }
    case "invalid_value":
      return `must be one of ${issue.values.map((value) => JSON.stringify(value)).join(", ")}`;
    case "not_multiple_of":
      return `must be a multiple of ${String(issue.divisor)}`;
    case "invalid_format":
      return issue.format === "regex" && "pattern" in issue ? `does not have the expected form (${String(issue.pattern)})` : `is not a valid ${issue.format}`;
    case "invalid_key":
      return "has a name that is not allowed";
    case "unrecognized_keys":
      return unknownSettingsMessage(issue.keys, propertiesAt(schema, issue.path ?? []));
    default:
      return issue.message ?? "is not valid";
  }
}

/**
 * What is wrong with `settings` under `schema`, by setting; {} when nothing is, or when the
 * schema cannot be read here (the agent checks the settings again before it runs them).
 */
export function settingsProblems(schema: Record<string, unknown>, settings: unknown): SettingsProblems {
  const entry = convert(schema);
  if ("unchecked" in entry) return {};
  const result = entry.schema.safeParse(settings, { error: (issue) => wording(issue, schema) });
  const problems: SettingsProblems = {};
  for (const issue of result.error?.issues ?? []) {
    // A list's item problem stays on the list and names the item (and, in a list of objects, the
    // item's setting): "item 2: must be a number", "item 1, addr: is required".
    const item = issue.path.findIndex((step) => typeof step === "number");
    const path = item < 0 ? issue.path : issue.path.slice(0, item);
    const key = path.map(String).join(".");
    const within = issue.path
      .slice(item + 1)
      .map(String)
      .join(".");
    const message = item < 0 ? issue.message : `item ${(issue.path[item] as number) + 1}${within ? `, ${within}` : ""}: ${issue.message}`;
    problems[key] ??= message;
  }
  const { notTogether } = entry;
  if (notTogether.length > 1 && isObject(settings) && notTogether.every((name) => settings[name] !== undefined)) {
    // The last one named is the setting to take out (the agents word it the same way).
    problems[notTogether.at(-1) as string] ??= `cannot be given together with ${notTogether.slice(0, -1).join(", ")} (give one or the other)`;
  }
  return problems;
}

/** The problems as one line per setting, "level: must be at most 9" ("" names the settings). */
export function problemLines(problems: SettingsProblems): string[] {
  return Object.entries(problems).map(([key, message]) => (key ? `${key}: ${message}` : message));
}
