"use client";
// Make a share link: live or snapshot, which baseline, when it expires. The new URL is shown
// once, with a Copy button: only its hash is kept, so it cannot be shown again.
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import type { z } from "zod";
import { formatDateTime } from "~/components/format";
import { Field } from "~/components/forms/field";
import { applyServerErrors } from "~/components/forms/server-errors";
import { SubmitButton } from "~/components/forms/submit-button";
import { useHydrated } from "~/components/forms/use-hydrated";
import { SecretShownOnce } from "~/components/secrets/secret-shown-once";
import { useTRPC } from "~/components/trpc/react";
import { ZShareLinkForm, type TShareLinkFormValues } from "~/server/schemas/share-link";
import { ExpiryFields } from "./expiry-fields";

export interface ShareTarget {
  projectSlug: string;
  experimentSlug: string;
  variants: readonly string[];
  /** The baseline the experiment page shows now; the form starts with it. */
  baseline: string;
  /** Where readers reach Versus, for the full URL. */
  origin: string;
}

const modes = [
  { value: "live", label: "Live", hint: "Recomputed from the latest runs at every visit." },
  { value: "snapshot", label: "Snapshot", hint: "Frozen as it is now; later runs do not change it." },
] as const;

export function CreateShareLinkForm({ target, onCreated }: { target: ShareTarget; onCreated: () => Promise<unknown> }) {
  const trpc = useTRPC();
  const hydrated = useHydrated();
  const create = useMutation(trpc.share.create.mutationOptions());
  const [created, setCreated] = useState<{ url: string; mode: string; expiresAt: Date | null }>();
  // On a phone the new link appears below the fold: bring it into view.
  const createdBox = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // A block body: newer browsers return a promise from scrollIntoView, and React would take
    // a returned value for the effect's cleanup function.
    createdBox.current?.scrollIntoView({ block: "nearest" });
  }, [created]);
  const [formError, setFormError] = useState<string>();
  const form = useForm<TShareLinkFormValues, unknown, z.output<typeof ZShareLinkForm>>({
    resolver: zodResolver(ZShareLinkForm),
    defaultValues: { mode: "live", baseline: target.baseline, expiry: "never", expiresOn: "" },
  });
  const { register, formState } = form;

  const expiryChoice = useWatch({ control: form.control, name: "expiry" });

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(undefined);
    try {
      const link = await create.mutateAsync({ projectSlug: target.projectSlug, experimentSlug: target.experimentSlug, ...values });
      setCreated({ url: `${target.origin}${link.path}`, mode: link.mode, expiresAt: link.expiresAt });
      await onCreated();
    } catch (error) {
      // The API names the expiry `expiresAt`; the form asks for it as a date.
      setFormError(applyServerErrors<TShareLinkFormValues>(error, (name, problem) => form.setError((name as string) === "expiresAt" ? "expiresOn" : name, problem)));
    }
  });

  return (
    <section aria-labelledby="new-share-link">
      <h3 id="new-share-link">New link</h3>
      <form className="stack" onSubmit={onSubmit} noValidate data-ready={hydrated} aria-label="New share link">
        {formError ? (
          <div className="alert" role="alert">
            {formError}
          </div>
        ) : null}
        <fieldset className="share-modes">
          <legend>What the link shows</legend>
          {modes.map((mode) => (
            <label key={mode.value} className="choice">
              <input type="radio" value={mode.value} {...register("mode")} />
              <span>
                <strong>{mode.label}</strong> <span className="muted small">{mode.hint}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <div className="row">
          <Field id="share-baseline" label="Compared against" hint="Readers cannot change it.">
            <select id="share-baseline" {...register("baseline")}>
              {target.variants.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          </Field>
        </div>
        <ExpiryFields idPrefix="share" label="Expires" expiry={register("expiry")} expiresOn={register("expiresOn")} choice={expiryChoice} dateError={formState.errors.expiresOn?.message} />
        <div className="form-actions">
          <SubmitButton hydrated={hydrated} submitting={formState.isSubmitting}>
            {formState.isSubmitting ? "Creating…" : "Create link"}
          </SubmitButton>
        </div>
      </form>
      {created ? (
        <SecretShownOnce
          label="Link created"
          boxRef={createdBox}
          secret={created.url}
          testId="share-url"
          copyLabel="Copy link"
          message={
            <>
              <strong>Copy the link now</strong> — it is shown only once. Anyone with it can see this comparison ({created.mode}
              {created.expiresAt ? `, until ${formatDateTime(created.expiresAt)}` : ", no expiry"}) without signing in.
            </>
          }
        />
      ) : null}
    </section>
  );
}
