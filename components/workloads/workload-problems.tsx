"use client";
// Workload editors keep what a user typed while it is not a valid setting yet ("4.5" in a whole
// number, half-written JSON), so the form's values alone cannot tell that something is wrong.
// Each editor reports its problems here, under the form field it edits, and the form's resolver
// refuses to submit while any is reported, as it does for its own Zod errors.
import { createContext, useContext, useState } from "react";
import { set, type FieldErrors, type FieldValues, type Resolver } from "react-hook-form";

export class WorkloadProblems {
  private readonly byField = new Map<string, string>();

  /** Reports (a message) or clears (null) the problem of the editor of form field `field`. */
  report(field: string, message: string | null) {
    if (message) this.byField.set(field, message);
    else this.byField.delete(field);
  }

  /** `resolver`, refusing values while an editor reports a problem (shown at `<field>.settings`). */
  guard<T extends FieldValues, C, O>(resolver: Resolver<T, C, O>): Resolver<T, C, O> {
    return async (values, context, options) => {
      const result = await resolver(values, context, options);
      if (this.byField.size === 0) return result;
      const errors = { ...result.errors } as FieldErrors<T>;
      for (const [field, message] of this.byField) set(errors, `${field}.settings`, { type: "workload", message });
      return { values: {}, errors };
    };
  }
}

const ProblemsContext = createContext<WorkloadProblems | null>(null);

export const WorkloadProblemsProvider = ProblemsContext.Provider;

/** One registry for the lifetime of a form. */
export function useNewWorkloadProblems(): WorkloadProblems {
  const [problems] = useState(() => new WorkloadProblems());
  return problems;
}

/** The form's registry; null outside one (the editor then only shows its problems). */
export function useWorkloadProblems(): WorkloadProblems | null {
  return useContext(ProblemsContext);
}
