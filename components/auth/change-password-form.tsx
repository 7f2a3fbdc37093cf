"use client";
// Change one's own password through better-auth (it checks the current one and re-hashes).
import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { Field, invalidProps } from "~/components/forms/field";
import { FormResult, type FormOutcome } from "~/components/forms/form-result";
import { useHydrated } from "~/components/forms/use-hydrated";
import { MIN_PASSWORD_LENGTH, ZChangePassword } from "~/server/schemas/auth";
import { authClient } from "./auth-client";
import { SubmitButton } from "~/components/forms/submit-button";
import { PasswordInput } from "~/components/forms/password-input";

type Values = z.input<typeof ZChangePassword>;

export function ChangePasswordForm() {
  const hydrated = useHydrated();
  const [result, setResult] = useState<FormOutcome>();
  const form = useForm<Values, unknown, z.output<typeof ZChangePassword>>({
    resolver: zodResolver(ZChangePassword),
    defaultValues: { currentPassword: "", newPassword: "", confirmPassword: "", signOutOtherSessions: true },
  });
  const errors = form.formState.errors;

  const onSubmit = form.handleSubmit(async (values) => {
    setResult(undefined);
    const { error } = await authClient.changePassword({
      currentPassword: values.currentPassword,
      newPassword: values.newPassword,
      revokeOtherSessions: values.signOutOtherSessions,
    });
    if (error) {
      // The new password is refused for what it is (too easy to guess, too short, too long); any other refusal is of the current one.
      if (error.code?.startsWith("PASSWORD_TOO_")) form.setError("newPassword", { type: "server", message: error.message ?? "choose another password" });
      else if (error.status === 400 || error.status === 401) form.setError("currentPassword", { type: "server", message: "this is not your current password" });
      setResult({ ok: false, message: error.message || "The password could not be changed" });
      return;
    }
    form.reset();
    setResult({ ok: true, message: values.signOutOtherSessions ? "Password changed. Other browsers were signed out." : "Password changed." });
  });

  return (
    <form className="stack" onSubmit={onSubmit} noValidate data-ready={hydrated} aria-label="Change password">
      <FormResult result={result} />
      <Field id="current-password" label="Current password" error={errors.currentPassword?.message}>
        <PasswordInput
          id="current-password"
          autoComplete="current-password"
          {...form.register("currentPassword")}
          {...invalidProps("current-password", errors.currentPassword?.message)}
        />
      </Field>
      <Field id="new-password" label="New password" hint={`At least ${MIN_PASSWORD_LENGTH} characters`} error={errors.newPassword?.message}>
        <PasswordInput
          id="new-password"
          autoComplete="new-password"
          strength={{}}
          {...form.register("newPassword")}
          {...invalidProps("new-password", errors.newPassword?.message)}
        />
      </Field>
      <Field id="confirm-password" label="New password again" error={errors.confirmPassword?.message}>
        <PasswordInput
          id="confirm-password"
          autoComplete="new-password"
          {...form.register("confirmPassword")}
          {...invalidProps("confirm-password", errors.confirmPassword?.message)}
        />
      </Field>
      <label className="radio" style={{ paddingTop: 0 }}>
        <input type="checkbox" {...form.register("signOutOtherSessions")} /> Sign out my other browsers
      </label>
      <div className="form-actions">
        <SubmitButton hydrated={hydrated} submitting={form.formState.isSubmitting}>
          Change password
        </SubmitButton>
      </div>
    </form>
  );
}
