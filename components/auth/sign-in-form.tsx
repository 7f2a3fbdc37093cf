"use client";
// Email and password sign-in through better-auth; on success, back to where the user was going.
import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { Field, invalidProps } from "~/components/forms/field";
import { useHydrated } from "~/components/forms/use-hydrated";
import { ZSignIn } from "~/server/schemas/auth";
import { authClient } from "./auth-client";
import { safeNextPath } from "./safe-next";
import { signInErrorMessage } from "./sign-in-error";
import { SubmitButton } from "~/components/forms/submit-button";
import { PasswordInput } from "~/components/forms/password-input";

type Values = z.input<typeof ZSignIn>;

export function SignInForm({ next }: { next?: string }) {
  const hydrated = useHydrated();
  const [formError, setFormError] = useState<string>();
  const form = useForm<Values, unknown, z.output<typeof ZSignIn>>({ resolver: zodResolver(ZSignIn), defaultValues: { email: "", password: "" } });
  const errors = form.formState.errors;

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(undefined);
    const { error } = await authClient.signIn.email({ email: values.email, password: values.password });
    if (error) {
      setFormError(signInErrorMessage(error));
      return;
    }
    // A full load, so the layout (who is signed in) and every server component start afresh.
    window.location.assign(new URL(safeNextPath(next), window.location.href));
  });

  return (
    <form className="stack" onSubmit={onSubmit} noValidate data-ready={hydrated} aria-label="Sign in">
      {formError ? (
        <div className="alert" role="alert">
          {formError}
        </div>
      ) : null}
      <Field id="sign-in-email" label="Email" error={errors.email?.message}>
        <input id="sign-in-email" type="email" autoComplete="username" {...form.register("email")} {...invalidProps("sign-in-email", errors.email?.message)} />
      </Field>
      <Field id="sign-in-password" label="Password" error={errors.password?.message}>
        <PasswordInput
          id="sign-in-password"
          autoComplete="current-password"
          {...form.register("password")}
          {...invalidProps("sign-in-password", errors.password?.message)}
        />
      </Field>
      <div className="form-actions">
        <SubmitButton hydrated={hydrated} submitting={form.formState.isSubmitting}>
          Sign in
        </SubmitButton>
      </div>
    </form>
  );
}
