"use client";
// Accepting an invitation for an address that already has an account: sign in here (the email
// is the invitation's), then join, then open the project.
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { authClient } from "~/components/auth/auth-client";
import { signInErrorMessage } from "~/components/auth/sign-in-error";
import { Field, invalidProps } from "~/components/forms/field";
import { applyServerErrors } from "~/components/forms/server-errors";
import { SubmitButton } from "~/components/forms/submit-button";
import { useHydrated } from "~/components/forms/use-hydrated";
import { useTRPC } from "~/components/trpc/react";
import { ZSignIn } from "~/server/schemas/auth";
import { PasswordInput } from "~/components/forms/password-input";

type Values = z.input<typeof ZSignIn>;

export function SignInAcceptForm({ token, email, projectName }: { token: string; email: string; projectName: string }) {
  const trpc = useTRPC();
  const hydrated = useHydrated();
  const accept = useMutation(trpc.invitation.accept.mutationOptions());
  const [formError, setFormError] = useState<string>();
  const form = useForm<Values, unknown, z.output<typeof ZSignIn>>({ resolver: zodResolver(ZSignIn), defaultValues: { email, password: "" } });
  const errors = form.formState.errors;

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(undefined);
    const signIn = await authClient.signIn.email({ email: values.email, password: values.password });
    if (signIn.error) {
      setFormError(signInErrorMessage(signIn.error, "That password does not match this account."));
      return;
    }
    try {
      const { projectSlug } = await accept.mutateAsync({ token });
      window.location.assign(new URL(`/p/${projectSlug}`, window.location.href));
    } catch (error) {
      // Signed in, but joining failed (say the link was used meanwhile): the message says why.
      setFormError(applyServerErrors(error, form.setError));
    }
  });

  return (
    <form className="stack" onSubmit={onSubmit} noValidate data-ready={hydrated} aria-label="Sign in to join">
      {formError ? (
        <div className="alert" role="alert">
          {formError}
        </div>
      ) : null}
      <Field id="join-email" label="Email" hint="The invitation is for this address">
        <input id="join-email" type="email" autoComplete="username" readOnly {...form.register("email")} />
      </Field>
      <Field id="join-password" label="Password" error={errors.password?.message}>
        <PasswordInput
          id="join-password"
          autoComplete="current-password"
          {...form.register("password")}
          {...invalidProps("join-password", errors.password?.message)}
        />
      </Field>
      <div className="form-actions">
        <SubmitButton hydrated={hydrated} submitting={form.formState.isSubmitting}>
          Sign in and join {projectName}
        </SubmitButton>
      </div>
    </form>
  );
}
