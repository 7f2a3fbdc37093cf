"use client";
// Changing one's own name: what members lists and the menu show.
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
import { ZUpdateName } from "~/server/schemas/auth";

type Values = z.input<typeof ZUpdateName>;

export function AccountNameForm({ name }: { name: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const hydrated = useHydrated();
  const update = useMutation(trpc.account.updateName.mutationOptions());
  const [formError, setFormError] = useState<string>();
  const [saved, setSaved] = useState(false);
  const form = useForm<Values, unknown, z.output<typeof ZUpdateName>>({ resolver: zodResolver(ZUpdateName), defaultValues: { name } });
  const errors = form.formState.errors;

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(undefined);
    setSaved(false);
    try {
      const user = await update.mutateAsync(values);
      form.reset({ name: user.name });
      setSaved(true);
      router.refresh();
    } catch (error) {
      setFormError(applyServerErrors(error, form.setError));
    }
  });

  return (
    <form className="stack" onSubmit={onSubmit} noValidate data-ready={hydrated} aria-label="Your name">
      {formError ? (
        <div className="alert" role="alert">
          {formError}
        </div>
      ) : null}
      <Field id="account-name" label="Name" hint="How members lists and the menu show you" error={errors.name?.message}>
        <input id="account-name" type="text" autoComplete="name" {...form.register("name")} {...invalidProps("account-name", errors.name?.message)} />
      </Field>
      <div className="form-actions">
        <SubmitButton hydrated={hydrated} submitting={form.formState.isSubmitting}>
          Save name
        </SubmitButton>
        {saved && !form.formState.isDirty ? (
          <span className="muted small" role="status">
            Name saved
          </span>
        ) : null}
      </div>
    </form>
  );
}
