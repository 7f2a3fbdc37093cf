"use client";
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { Field, invalidProps } from "~/components/forms/field";
import { applyServerErrors } from "~/components/forms/server-errors";
import { useHydrated } from "~/components/forms/use-hydrated";
import { useTRPC } from "~/components/trpc/react";
import { ZProjectInput } from "~/server/schemas/project";
import { SubmitButton } from "~/components/forms/submit-button";

type Values = z.input<typeof ZProjectInput>;

export function NewProjectForm() {
  const trpc = useTRPC();
  const hydrated = useHydrated();
  const router = useRouter();
  const [formError, setFormError] = useState<string>();
  const form = useForm<Values, unknown, z.output<typeof ZProjectInput>>({
    resolver: zodResolver(ZProjectInput),
    defaultValues: { name: "", slug: "", description: "" },
  });
  const create = useMutation(trpc.project.create.mutationOptions());
  const errors = form.formState.errors;

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(undefined);
    try {
      const project = await create.mutateAsync(values);
      router.push(`/p/${project.slug}`);
    } catch (error) {
      setFormError(applyServerErrors(error, form.setError));
    }
  });

  return (
    <form className="stack" onSubmit={onSubmit} noValidate data-ready={hydrated} aria-label="New project">
      {formError ? (
        <div className="alert" role="alert">
          {formError}
        </div>
      ) : null}
      <div className="row">
        <Field id="project-name" label="Name" error={errors.name?.message}>
          <input id="project-name" type="text" {...form.register("name")} {...invalidProps("project-name", errors.name?.message)} />
        </Field>
        <Field id="project-slug" label="Slug" hint="Used in links; derived from the name when empty" error={errors.slug?.message}>
          <input id="project-slug" type="text" placeholder="payments-team" {...form.register("slug")} {...invalidProps("project-slug", errors.slug?.message)} />
        </Field>
      </div>
      <div className="form-actions">
        <SubmitButton hydrated={hydrated} submitting={form.formState.isSubmitting}>
          Create project
        </SubmitButton>
      </div>
    </form>
  );
}
