"use client";
// Owners invite by email: someone with an account joins at once; anyone else gets a link, shown
// here once (only its hash is stored), to send them however the team talks.
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import type { z } from "zod";
import { formatDateTime } from "~/components/format";
import { Field, invalidProps } from "~/components/forms/field";
import { applyServerErrors } from "~/components/forms/server-errors";
import { SubmitButton } from "~/components/forms/submit-button";
import { useHydrated } from "~/components/forms/use-hydrated";
import { useTRPC } from "~/components/trpc/react";
import { memberRoles, roleDescriptions, ZInviteMember } from "~/server/schemas/member";
import { SecretShownOnce } from "~/components/secrets/secret-shown-once";

type Values = z.input<typeof ZInviteMember>;
type Outcome = { kind: "added"; who: string; role: string } | { kind: "invited"; email: string; role: string; link: string; expiresAt: Date };

export function InviteForm({ projectSlug, onChanged }: { projectSlug: string; onChanged: () => Promise<void> }) {
  const trpc = useTRPC();
  const hydrated = useHydrated();
  const invite = useMutation(trpc.member.invite.mutationOptions());
  const [outcome, setOutcome] = useState<Outcome>();
  const [formError, setFormError] = useState<string>();
  const form = useForm<Values, unknown, z.output<typeof ZInviteMember>>({
    resolver: zodResolver(ZInviteMember),
    defaultValues: { projectSlug, email: "", role: "member" },
  });
  const errors = form.formState.errors;
  const role = useWatch({ control: form.control, name: "role" });

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(undefined);
    setOutcome(undefined);
    try {
      const result = await invite.mutateAsync(values);
      if (result.kind === "added") {
        setOutcome({
          kind: "added",
          who: result.member.name ? `${result.member.name} (${result.member.email})` : result.member.email,
          role: result.member.role,
        });
      } else {
        const link = new URL(result.path, window.location.href).toString();
        setOutcome({ kind: "invited", email: result.invitation.email, role: result.invitation.role, link, expiresAt: result.invitation.expiresAt });
      }
      form.reset({ projectSlug, email: "", role: values.role });
      await onChanged();
    } catch (error) {
      setFormError(applyServerErrors(error, form.setError));
    }
  });

  return (
    <section className="card" aria-labelledby="invite-heading">
      <h2 id="invite-heading">Invite someone</h2>
      <form className="stack" onSubmit={onSubmit} noValidate data-ready={hydrated} aria-label="Invite someone">
        {formError ? (
          <div className="alert" role="alert">
            {formError}
          </div>
        ) : null}
        <div className="row">
          <Field id="invite-email" label="Email" error={errors.email?.message}>
            <input
              id="invite-email"
              type="email"
              autoComplete="off"
              placeholder="ana@example.com"
              {...form.register("email")}
              {...invalidProps("invite-email", errors.email?.message)}
            />
          </Field>
          <Field id="invite-role" label="Role" hint={role ? roleDescriptions[role] : undefined} error={errors.role?.message}>
            <select id="invite-role" {...form.register("role")} {...invalidProps("invite-role", errors.role?.message)}>
              {memberRoles.map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
          </Field>
        </div>
        <div className="form-actions">
          <SubmitButton hydrated={hydrated} submitting={form.formState.isSubmitting}>
            Invite
          </SubmitButton>
        </div>
      </form>
      {outcome?.kind === "added" ? (
        <p className="notice-good" role="status">
          {outcome.who} already had an account and is now a {outcome.role} of this project.
        </p>
      ) : null}
      {outcome?.kind === "invited" ? (
        <SecretShownOnce
          label="Invitation link"
          secret={outcome.link}
          testId="invitation-link"
          copyLabel="Copy link"
          message={
            <>
              <strong>Send this link to {outcome.email}</strong> — it is shown only once. It lets one person join as a {outcome.role} and works until{" "}
              {formatDateTime(outcome.expiresAt)}.
            </>
          }
        />
      ) : null}
    </section>
  );
}
