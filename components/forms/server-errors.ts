// Puts the field-level problems a tRPC call reported (data.fieldIssues) beside the matching
// form fields, and returns the message for the form-wide alert.
import { TRPCClientError } from "@trpc/client";
import type { FieldValues, Path, UseFormSetError } from "react-hook-form";
import type { FieldIssue } from "~/server/core/errors";

export function applyServerErrors<T extends FieldValues>(error: unknown, setError: UseFormSetError<T>, pathPrefix: (string | number)[] = []): string {
  if (!(error instanceof TRPCClientError)) return error instanceof Error ? error.message : "Something went wrong";
  const data = error.data as { fieldIssues?: FieldIssue[] } | undefined;
  for (const issue of data?.fieldIssues ?? []) {
    const path = startsWith(issue.path, pathPrefix) ? issue.path.slice(pathPrefix.length) : issue.path;
    if (path.length) setError(path.join(".") as Path<T>, { type: "server", message: issue.message });
  }
  return error.message;
}

function startsWith(path: (string | number)[], prefix: (string | number)[]) {
  return prefix.every((key, index) => path[index] === key);
}
