// Turns Zod's issues into the field-level form every client sees (REST details, tRPC, forms).
import type { z } from "zod";
import { badInput, type AppError, type FieldIssue } from "../core/errors";
import { unstorableIssues } from "./storable";

export function fieldIssuesOf(error: z.ZodError): FieldIssue[] {
  return error.issues.map((issue) => ({
    path: issue.path.filter((key): key is string | number => typeof key !== "symbol"),
    message: issue.message,
  }));
}

/**
 * Parses `input` with `schema`, or throws a 400 AppError naming every bad field — including text
 * no field can store and nesting beyond any real input (./storable.ts), whatever the schema.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const unstorable = unstorableIssues(input);
  const result = schema.safeParse(input);
  if (unstorable.length > 0 || !result.success) {
    throw badInput([...unstorable, ...(result.success ? [] : fieldIssuesOf(result.error))]) satisfies AppError;
  }
  return result.data;
}
