// tRPC refusals in tests: the call must fail with this code, and which fields the refusal names.
import { TRPCError } from "@trpc/server";
import { expect } from "vitest";
import { ZodError } from "zod";
import { AppError, type FieldIssue } from "~/server/core/errors";
import { fieldIssuesOf } from "~/server/schemas/validation";

/** Awaits a call that must fail with a TRPCError of `code`, and returns that error. */
export async function expectTRPCError(call: Promise<unknown>, code: TRPCError["code"]): Promise<TRPCError> {
  const error = await call.then(
    (value: unknown) => {
      throw new Error(`expected ${code}, but the call succeeded with ${JSON.stringify(value)}`);
    },
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(TRPCError);
  expect((error as TRPCError).code, (error as TRPCError).message).toBe(code);
  return error as TRPCError;
}

/** The field problems a refusal carries, whether input parsing (Zod) or a service found them. */
export function fieldIssuesOfError(error: TRPCError): FieldIssue[] {
  if (error.cause instanceof ZodError) return fieldIssuesOf(error.cause);
  if (error.cause instanceof AppError) return error.cause.fieldIssues;
  return [];
}
