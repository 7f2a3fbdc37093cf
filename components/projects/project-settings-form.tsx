"use client";
// Owners rename and re-describe a project. The slug stays: links, API paths and CI scripts use it.
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { Field, invalidProps } from "~/components/forms/field";
import { applyServerErrors } from "~/components/forms/server-errors";
import { SubmitButton } from "~/components/forms/submit-button";
import { useHydrated } from "~/components/forms/use-hydrated";
import { useTRPC } from "~/components/trpc/react";
import { ZUpdateProject } from "~/server/schemas/project";

type Values = z.input<typeof ZUpdateProject>;

export function ProjectSettingsForm({ projectSlug, name, description }: { projectSlug: string; name: string; description: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const hydrated = useHydrated();
  const update = useMutation(trpc.project.update.mutationOptions());
  const [formError, setFormError] = useState<string>();
  const [saved, setSaved] = useState(false);
  const form = useForm<Values, unknown, z.output<typeof ZUpdateProject>>({
    resolver: zodResolver(ZUpdateProject),
    defaultValues: { projectSlug, name, description },
  });
  const errors = form.formState.errors;

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(undefined);
    setSaved(false);
    try {
      const project = await update.mutateAsync(values);
      form.reset({ projectSlug, name: project.name, description: project.description ?? "" });
      setSaved(true);
      router.refresh();
    } catch (error) {
      setFormError(applyServerErrors(error, form.setError));
    }
  });

  return (
    <form className="stack" onSubmit={onSubmit} noValidate data-ready={hydrated} aria-label="Project details">
      {formError ? (
        <div className="alert" role="alert">
          {formError}
        </div>
      ) : null}
      <Field id="settings-name" label="Name" error={errors.name?.message}>
        <input id="settings-name" type="text" {...form.register("name")} {...invalidProps("settings-name", errors.name?.message)} />
      </Field>
      <Field id="settings-description" label="Description" hint="One or two sentences shown under the project's name" error={errors.description?.message}>
        <textarea id="settings-description" rows={3} {...form.register("description")} {...invalidProps("settings-description", errors.description?.message)} />
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
