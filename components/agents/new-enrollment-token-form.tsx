"use client";
// Creates an enrollment token and shows its secret once, with the configuration an agent starts with.
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import { useForm, useWatch } from "react-hook-form";
import type { z } from "zod";
import { ExpiryFields, expiryFieldOf } from "~/components/forms/expiry-fields";
import { Field, invalidProps } from "~/components/forms/field";
import { CreateSecretForm } from "~/components/secrets/create-secret-form";
import { namedSecret } from "~/components/secrets/secret-shown-once";
import { useTRPC } from "~/components/trpc/react";
import { ZEnrollmentTokenForm, type TEnrollmentTokenFormValues } from "~/server/schemas/enrollment-token";

export function NewEnrollmentTokenForm({ projectSlug, origin, onCreated }: { projectSlug: string; origin: string; onCreated: () => Promise<unknown> }) {
  const trpc = useTRPC();
  const create = useMutation(trpc.enrollmentToken.create.mutationOptions());
  const form = useForm<TEnrollmentTokenFormValues, unknown, z.output<typeof ZEnrollmentTokenForm>>({
    resolver: zodResolver(ZEnrollmentTokenForm),
    defaultValues: { name: "", expiry: "30d", expiresOn: "" },
  });
  const [expiry, expiresOn] = useWatch({ control: form.control, name: ["expiry", "expiresOn"] });
  const errors = form.formState.errors;

  return (
    <CreateSecretForm
      title="New enrollment token"
      form={form}
      create={(values) => create.mutateAsync({ projectSlug, ...values })}
      submit="Create token"
      fieldOf={expiryFieldOf}
      onCreated={onCreated}
      shown={(token) =>
        namedSecret("enrollment token", token, {
          hint: "Start the Versus agent (versus-agent) with this configuration; it enrolls on its first start:",
          text: `VERSUS_URL=${origin} \\\nVERSUS_ENROLLMENT_TOKEN=${token.secret} \\\nversus-agent`,
          copyLabel: "Copy command",
        })
      }
    >
      <div className="row">
        <Field id="token-name" label="Name" hint="The machine or fleet it is for, e.g. “bench-01” or “CI runners”" error={errors.name?.message}>
          <input id="token-name" type="text" autoComplete="off" {...form.register("name")} {...invalidProps("token-name", errors.name?.message)} />
        </Field>
        <ExpiryFields
          idPrefix="token"
          label="Expires"
          hint="After that, no new agent can enroll with it"
          expiry={form.register("expiry")}
          expiresOn={form.register("expiresOn")}
          value={{ expiry, expiresOn }}
          errors={{ expiry: errors.expiry?.message, expiresOn: errors.expiresOn?.message }}
        />
      </div>
    </CreateSecretForm>
  );
}
