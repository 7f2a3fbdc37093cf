"use client";
// Accepting an invitation with a new account: the server creates the account and the membership
// together, then the browser signs in with the password just chosen and opens the project.
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { authClient } from "~/components/auth/auth-client";
import { NewAccountFields } from "~/components/auth/new-account-fields";
import { applyServerErrors } from "~/components/forms/server-errors";
import { SubmitButton } from "~/components/forms/submit-button";
import { useHydrated } from "~/components/forms/use-hydrated";
import { useTRPC } from "~/components/trpc/react";
import { ZNewAccount } from "~/server/schemas/auth";
import { ZAcceptInvitation } from "~/server/schemas/member";

/** The accept input with the account required: this form always creates one. */
const ZAcceptWithAccount = ZAcceptInvitation.extend({ account: ZNewAccount });
type Values = z.input<typeof ZAcceptWithAccount>;

export function NewAccountAcceptForm({ token, email, projectName }: { token: string; email: string; projectName: string }) {
  const trpc = useTRPC();
  const hydrated = useHydrated();
  const accept = useMutation(trpc.invitation.accept.mutationOptions());
  const [formError, setFormError] = useState<string>();
  const form = useForm<Values, unknown, z.output<typeof ZAcceptWithAccount>>({
    resolver: zodResolver(ZAcceptWithAccount),
    defaultValues: { token, account: { name: "", email, password: "" } },
  });

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(undefined);
    let projectSlug: string;
    try {
      ({ projectSlug } = await accept.mutateAsync(values));
    } catch (error) {
      setFormError(applyServerErrors(error, form.setError));
      return;
    }
    const { error } = await authClient.signIn.email({ email: values.account.email, password: values.account.password });
    // The account and membership exist either way; if only the automatic sign-in failed, sign in by hand.
    const next = `/p/${projectSlug}`;
    window.location.assign(new URL(error ? `/sign-in?next=${encodeURIComponent(next)}` : next, window.location.href));
  });

  return (
    <form className="stack" onSubmit={onSubmit} noValidate data-ready={hydrated} aria-label="Create your account">
      {formError ? (
        <div className="alert" role="alert">
          {formError}
        </div>
      ) : null}
      <NewAccountFields register={form.register} errors={form.formState.errors} lockedEmail={email} />
      <div className="form-actions">
        <SubmitButton hydrated={hydrated} submitting={form.formState.isSubmitting}>
          Create account and join {projectName}
        </SubmitButton>
      </div>
    </form>
  );
}
