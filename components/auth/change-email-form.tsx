"use client";
// Changing the email one signs in with. Versus sends no email to confirm the new address, so the
// current password is asked for instead (server/auth/account.ts).
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { Field, invalidProps } from "~/components/forms/field";
import { FormResult, type FormOutcome } from "~/components/forms/form-result";
import { PasswordInput } from "~/components/forms/password-input";
import { applyServerErrors } from "~/components/forms/server-errors";
import { SubmitButton } from "~/components/forms/submit-button";
import { useHydrated } from "~/components/forms/use-hydrated";
import { useTRPC } from "~/components/trpc/react";
import { ZChangeEmail } from "~/server/schemas/auth";

type Values = z.input<typeof ZChangeEmail>;

export function ChangeEmailForm({ email }: { email: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const hydrated = useHydrated();
  const change = useMutation(trpc.account.changeEmail.mutationOptions());
  const [result, setResult] = useState<FormOutcome>();
  const form = useForm<Values, unknown, z.output<typeof ZChangeEmail>>({
    resolver: zodResolver(ZChangeEmail),
    defaultValues: { newEmail: "", currentPassword: "" },
  });
  const errors = form.formState.errors;

  const onSubmit = form.handleSubmit(async (values) => {
    setResult(undefined);
    try {
      const user = await change.mutateAsync(values);
      form.reset();
      setResult({ ok: true, message: `Email changed. Sign in with ${user.email} from now on.` });
      router.refresh();
    } catch (error) {
      setResult({ ok: false, message: applyServerErrors(error, form.setError) });
    }
  });

  return (
    <form className="stack" onSubmit={onSubmit} noValidate data-ready={hydrated} aria-label="Change email">
      <FormResult result={result} />
      <p className="muted small" style={{ margin: 0 }}>
        You sign in with <strong className="member-email">{email}</strong>. Versus sends no email to confirm a new address, so it asks for your password
        instead.
      </p>
      <Field id="new-email" label="New email" error={errors.newEmail?.message}>
        <input id="new-email" type="email" autoComplete="email" {...form.register("newEmail")} {...invalidProps("new-email", errors.newEmail?.message)} />
      </Field>
      <Field id="email-current-password" label="Current password" error={errors.currentPassword?.message}>
        <PasswordInput
          id="email-current-password"
          autoComplete="current-password"
          {...form.register("currentPassword")}
          {...invalidProps("email-current-password", errors.currentPassword?.message)}
        />
      </Field>
      <div className="form-actions">
        <SubmitButton hydrated={hydrated} submitting={form.formState.isSubmitting}>
          Change email
        </SubmitButton>
      </div>
    </form>
  );
}
