"use client";
// The first owner's account, from the one-time setup link; then straight in, signed in.
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { applyServerErrors } from "~/components/forms/server-errors";
import { useHydrated } from "~/components/forms/use-hydrated";
import { useTRPC } from "~/components/trpc/react";
import { ZCompleteSetup } from "~/server/schemas/auth";
import { authClient } from "./auth-client";
import { NewAccountFields } from "./new-account-fields";
import { SubmitButton } from "~/components/forms/submit-button";

type Values = z.input<typeof ZCompleteSetup>;

export function SetupForm({ token }: { token: string }) {
  const trpc = useTRPC();
  const hydrated = useHydrated();
  const [formError, setFormError] = useState<string>();
  const complete = useMutation(trpc.setup.complete.mutationOptions());
  const form = useForm<Values, unknown, z.output<typeof ZCompleteSetup>>({
    resolver: zodResolver(ZCompleteSetup),
    defaultValues: { token, account: { name: "", email: "", password: "" } },
  });

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(undefined);
    try {
      await complete.mutateAsync(values);
    } catch (error) {
      setFormError(applyServerErrors(error, form.setError));
      return;
    }
    const { error } = await authClient.signIn.email({ email: values.account.email, password: values.account.password });
    // The account exists either way; if only the automatic sign-in failed, sign in by hand.
    window.location.assign(new URL(error ? "/sign-in" : "/", window.location.href));
  });

  return (
    <form className="stack" onSubmit={onSubmit} noValidate data-ready={hydrated} aria-label="Create the owner account">
      {formError ? (
        <div className="alert" role="alert">
          {formError}
        </div>
      ) : null}
      <NewAccountFields register={form.register} errors={form.formState.errors} />
      <div className="form-actions">
        <SubmitButton hydrated={hydrated} submitting={form.formState.isSubmitting}>
          Create owner account
        </SubmitButton>
      </div>
    </form>
  );
}
