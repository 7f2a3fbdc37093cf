// Turns Zod's issues into the field-level form every client sees (REST details, tRPC, forms).
import type { z } from "zod";
import { badInput, type AppError, type FieldIssue } from "../errors";

export function fieldIssuesOf(error: z.ZodError): FieldIssue[] {
  return error.issues.map((issue) => ({
    path: issue.path.filter((key): key is string | number => typeof key !== "symbol"),
    message: issue.message,
  }));
}

/** Parses `input` with `schema`, or throws a 400 AppError naming every bad field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw badInput(fieldIssuesOf(result.error)) satisfies AppError;
  return result.data;
}
