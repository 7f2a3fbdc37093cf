// Turns Zod's issues into the field-level form every client sees (REST details, tRPC, forms).
import type { z } from "zod";
import { badInput, type AppError, type FieldIssue } from "../core/errors";
import { unstorableIssues } from "./storable";

/**
 * `input`, when given, is what was parsed: a field of the wrong type that is simply missing from it
 * says "required" rather than Zod's "Invalid input: expected string, received undefined".
 */
export function fieldIssuesOf(error: z.ZodError, input?: unknown): FieldIssue[] {
  return error.issues.map((issue) => {
    const path = issue.path.filter((key): key is string | number => typeof key !== "symbol");
    const missing = input !== undefined && issue.code === "invalid_type" && valueAt(input, path) === undefined;
    return { path, message: missing ? `required (${issue.expected})` : issue.message };
  });
}

function valueAt(input: unknown, path: readonly (string | number)[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<string | number, unknown>)[key];
  }
  return value;
}

/**
 * Parses `input` with `schema`, or throws a 400 AppError naming every bad field — including text
 * no field can store and nesting beyond any real input (./storable.ts), whatever the schema.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const unstorable = unstorableIssues(input);
  const result = schema.safeParse(input);
  if (unstorable.length > 0 || !result.success) {
    throw badInput([...unstorable, ...(result.success ? [] : fieldIssuesOf(result.error, input))]) satisfies AppError;
  }
  return result.data;
}
