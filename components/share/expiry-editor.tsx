"use client";
// A link's new expiry (or none). Moving the expiry of an expired link makes it work again.
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import type { z } from "zod";
import { applyServerErrors } from "~/components/forms/server-errors";
import { useTRPC } from "~/components/trpc/react";
import { ZShareExpiryForm, type TShareExpiryFormValues } from "~/server/schemas/share-link";
import { ExpiryFields, expiryFieldOf } from "~/components/forms/expiry-fields";

export function ExpiryEditor({
  projectSlug,
  link,
  onDone,
}: {
  projectSlug: string;
  link: { id: string; name: string };
  onDone: (changed: boolean) => Promise<void>;
}) {
  const trpc = useTRPC();
  const setExpiry = useMutation(trpc.share.setExpiry.mutationOptions());
  const [formError, setFormError] = useState<string>();
  const form = useForm<TShareExpiryFormValues, unknown, z.output<typeof ZShareExpiryForm>>({
    resolver: zodResolver(ZShareExpiryForm),
    defaultValues: { expiry: "7d", expiresOn: "" },
  });

  const [expiry, expiresOn] = useWatch({ control: form.control, name: ["expiry", "expiresOn"] });

  const onSubmit = form.handleSubmit(async ({ expiresAt }) => {
    setFormError(undefined);
    try {
      await setExpiry.mutateAsync({ projectSlug, linkId: link.id, expiresAt });
      await onDone(true);
    } catch (error) {
      setFormError(
        applyServerErrors<TShareExpiryFormValues>(error, (name, problem) => form.setError(expiryFieldOf(name) as keyof TShareExpiryFormValues, problem)),
      );
    }
  });

  return (
    <form className="stack expiry-editor" onSubmit={onSubmit} noValidate aria-label={`New expiry of ${link.name}`}>
      {formError ? (
        <div className="alert" role="alert">
          {formError}
        </div>
      ) : null}
      <div className="row">
        <ExpiryFields
          idPrefix={`expiry-${link.id}`}
          label="New expiry"
          expiry={form.register("expiry")}
          expiresOn={form.register("expiresOn")}
          value={{ expiry, expiresOn }}
          errors={{ expiry: form.formState.errors.expiry?.message, expiresOn: form.formState.errors.expiresOn?.message }}
        />
      </div>
      <div className="form-actions">
        <button type="submit" className="button small primary" disabled={form.formState.isSubmitting}>
          Save expiry
        </button>
        <button type="button" className="button small" onClick={() => void onDone(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
