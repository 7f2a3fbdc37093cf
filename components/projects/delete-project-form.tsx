"use client";
// Deleting a project takes everything in it. The owner types the slug first, so a slip of the
// mouse cannot do it; the server checks the same thing (ZDeleteProject).
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import type { z } from "zod";
import { Field, invalidProps } from "~/components/forms/field";
import { applyServerErrors } from "~/components/forms/server-errors";
import { useHydrated } from "~/components/forms/use-hydrated";
import { useTRPC } from "~/components/trpc/react";
import { ZDeleteProject } from "~/server/schemas/project";

type Values = z.input<typeof ZDeleteProject>;

export function DeleteProjectForm({ projectSlug, projectName }: { projectSlug: string; projectName: string }) {
  const trpc = useTRPC();
  const hydrated = useHydrated();
  const remove = useMutation(trpc.project.delete.mutationOptions());
  const [formError, setFormError] = useState<string>();
  const form = useForm<Values, unknown, z.output<typeof ZDeleteProject>>({
    resolver: zodResolver(ZDeleteProject),
    defaultValues: { projectSlug, confirmSlug: "" },
  });
  const error = form.formState.errors.confirmSlug?.message;
  const typed = useWatch({ control: form.control, name: "confirmSlug" }) === projectSlug;

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(undefined);
    try {
      await remove.mutateAsync(values);
    } catch (cause) {
      setFormError(applyServerErrors(cause, form.setError));
      return;
    }
    // A full load: the project's pages are gone, and so is it from the project list.
    window.location.assign(new URL("/", window.location.href));
  });

  return (
    <form className="stack" onSubmit={onSubmit} noValidate data-ready={hydrated} aria-label="Delete project">
      {formError ? (
        <div className="alert" role="alert">
          {formError}
        </div>
      ) : null}
      <p style={{ margin: 0 }}>Deletes {projectName} with all its experiments, runs, results, API keys, share links and members. This cannot be undone.</p>
      <Field id="delete-confirm" label={`Type ${projectSlug} to confirm`} error={error}>
        <input
          id="delete-confirm"
          type="text"
          autoComplete="off"
          spellCheck={false}
          {...form.register("confirmSlug")}
          {...invalidProps("delete-confirm", error)}
        />
      </Field>
      <div className="form-actions">
        <button className="button danger" type="submit" disabled={!hydrated || !typed || form.formState.isSubmitting}>
          Delete this project
        </button>
      </div>
    </form>
  );
}
