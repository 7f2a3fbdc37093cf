"use client";
// Owners say where the project's code lives, so the history page can link each commit
// (<repository>/commit/<sha>). Empty clears it.
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { Field, invalidProps } from "~/components/forms/field";
import { applyServerErrors } from "~/components/forms/server-errors";
import { SubmitButton } from "~/components/forms/submit-button";
import { useHydrated } from "~/components/forms/use-hydrated";
import { useTRPC } from "~/components/trpc/react";
import { ZSetRepositoryUrl } from "~/server/schemas/history";

type Values = z.input<typeof ZSetRepositoryUrl>;

export function RepositoryUrlForm({ projectSlug, repositoryUrl }: { projectSlug: string; repositoryUrl: string }) {
  const trpc = useTRPC();
  const hydrated = useHydrated();
  const save = useMutation(trpc.history.setRepositoryUrl.mutationOptions());
  const [formError, setFormError] = useState<string>();
  const [saved, setSaved] = useState(false);
  const form = useForm<Values, unknown, z.output<typeof ZSetRepositoryUrl>>({
    resolver: zodResolver(ZSetRepositoryUrl),
    defaultValues: { projectSlug, repositoryUrl },
  });
  const error = form.formState.errors.repositoryUrl?.message;

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(undefined);
    setSaved(false);
    try {
      const result = await save.mutateAsync(values);
      form.reset({ projectSlug, repositoryUrl: result.repositoryUrl ?? "" });
      setSaved(true);
    } catch (failure) {
      setFormError(applyServerErrors(failure, form.setError));
    }
  });

  return (
    <form className="stack" onSubmit={onSubmit} noValidate data-ready={hydrated} aria-label="Repository">
      {formError ? (
        <div className="alert" role="alert">
          {formError}
        </div>
      ) : null}
      <Field
        id="settings-repository"
        label="Repository URL"
        hint="e.g. https://github.com/acme/app — the history page links each commit to <URL>/commit/<sha>"
        error={error}
      >
        <input
          id="settings-repository"
          type="url"
          placeholder="https://github.com/acme/app"
          {...form.register("repositoryUrl")}
          {...invalidProps("settings-repository", error)}
        />
      </Field>
      <div className="form-actions">
        <SubmitButton hydrated={hydrated} submitting={form.formState.isSubmitting}>
          Save
        </SubmitButton>
        {saved && !form.formState.isDirty ? (
          <span className="muted small" role="status">
            Saved
          </span>
        ) : null}
      </div>
    </form>
  );
}
