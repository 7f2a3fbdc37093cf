"use client";
// Creates an enrollment token and shows its secret once, with the configuration an agent starts with.
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import type { z } from "zod";
import { Field, invalidProps } from "~/components/forms/field";
import { applyServerErrors } from "~/components/forms/server-errors";
import { SubmitButton } from "~/components/forms/submit-button";
import { useHydrated } from "~/components/forms/use-hydrated";
import { CopyNow, SecretShownOnce } from "~/components/secrets/secret-shown-once";
import { useTRPC } from "~/components/trpc/react";
import { enrollmentExpiryChoices, enrollmentExpiryLabels, ZCreateEnrollmentToken } from "~/server/schemas/enrollment-token";

type Values = z.input<typeof ZCreateEnrollmentToken>;

export function NewEnrollmentTokenForm({ projectSlug, origin, onCreated }: { projectSlug: string; origin: string; onCreated: () => Promise<unknown> }) {
  const trpc = useTRPC();
  const hydrated = useHydrated();
  const create = useMutation(trpc.enrollmentToken.create.mutationOptions());
  const [created, setCreated] = useState<{ name: string; secret: string }>();
  const [formError, setFormError] = useState<string>();
  const defaultValues: Values = { projectSlug, name: "", expiresIn: "30d", expiresOn: "" };
  const form = useForm<Values, unknown, z.output<typeof ZCreateEnrollmentToken>>({ resolver: zodResolver(ZCreateEnrollmentToken), defaultValues });
  const expiresIn = useWatch({ control: form.control, name: "expiresIn" });

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(undefined);
    try {
      const token = await create.mutateAsync(values);
      setCreated({ name: token.name, secret: token.secret });
      form.reset(defaultValues);
      await onCreated();
    } catch (error) {
      setFormError(applyServerErrors(error, form.setError));
    }
  });

  const errors = form.formState.errors;
  return (
    <section className="card" aria-labelledby="new-enrollment-token">
      <h2 id="new-enrollment-token">New enrollment token</h2>
      <form className="stack" onSubmit={onSubmit} noValidate data-ready={hydrated} aria-label="New enrollment token">
        {formError ? (
          <div className="alert" role="alert">
            {formError}
          </div>
        ) : null}
        <div className="row">
          <Field id="token-name" label="Name" hint="The machine or fleet it is for, e.g. “bench-01” or “CI runners”" error={errors.name?.message}>
            <input id="token-name" type="text" autoComplete="off" {...form.register("name")} {...invalidProps("token-name", errors.name?.message)} />
          </Field>
          <Field id="token-expires-in" label="Expires" hint="After that, no new agent can enroll with it" error={errors.expiresIn?.message}>
            <select id="token-expires-in" {...form.register("expiresIn")} {...invalidProps("token-expires-in", errors.expiresIn?.message)}>
              {enrollmentExpiryChoices.map((choice) => (
                <option key={choice} value={choice}>
                  {enrollmentExpiryLabels[choice]}
                </option>
              ))}
            </select>
          </Field>
          {expiresIn === "date" ? (
            <Field id="token-expires-on" label="Last day" hint="Works until 23:59 UTC that day" error={errors.expiresOn?.message}>
              <input
                id="token-expires-on"
                type="date"
                min={new Date().toISOString().slice(0, 10)}
                {...form.register("expiresOn")}
                {...invalidProps("token-expires-on", errors.expiresOn?.message)}
              />
            </Field>
          ) : null}
        </div>
        <div className="form-actions">
          <SubmitButton hydrated={hydrated} submitting={form.formState.isSubmitting}>
            Create token
          </SubmitButton>
        </div>
      </form>
      {created ? (
        <SecretShownOnce
          label="New enrollment token secret"
          message={<CopyNow kind="enrollment token" name={created.name} />}
          secret={created.secret}
          testId="enrollment-token-secret"
          usage={{
            hint: "Start the Versus agent (versus-agent) with this configuration; it enrolls on its first start:",
            text: `VERSUS_URL=${origin} \\\nVERSUS_ENROLLMENT_TOKEN=${created.secret} \\\nversus-agent`,
            copyLabel: "Copy command",
          }}
        />
      ) : null}
    </section>
  );
}
