// Checks a variant's settings against the JSON Schema its workload's agents advertise, so a
// wrong setting is caught in the form rather than when an agent runs the job. Zod converts the
// JSON Schema; the messages are worded for the form, per setting.
import { z } from "zod";

/** Problems by top-level setting ("" for the settings object as a whole). */
export type SettingsProblems = Record<string, string>;

type Converted = { schema: z.ZodType } | { unchecked: string };

const converted = new WeakMap<object, Converted>();

function convert(schema: Record<string, unknown>): Converted {
  let entry = converted.get(schema);
  if (!entry) {
    try {
      entry = { schema: z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]) };
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

/** One issue worded for the form. */
function wording(issue: z.core.$ZodRawIssue): string {
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
    case "unrecognized_keys":
      return `unknown ${issue.keys.length === 1 ? "setting" : "settings"} ${issue.keys.map((key) => `"${key}"`).join(", ")}: the workload does not take ${issue.keys.length === 1 ? "it" : "them"}`;
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
  const result = entry.schema.safeParse(settings, { error: wording });
  const problems: SettingsProblems = {};
  for (const issue of result.error?.issues ?? []) {
    const [first, ...rest] = issue.path;
    const key = first === undefined ? "" : String(first);
    // A list item's problem names the item: "item 2: must be a number".
    const message = rest.length && typeof rest[0] === "number" ? `item ${rest[0] + 1}: ${issue.message}` : issue.message;
    problems[key] ??= message;
  }
  return problems;
}
