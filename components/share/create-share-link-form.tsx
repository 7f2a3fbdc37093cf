"use client";
// Make a share link: live or snapshot, which baseline, when it expires. The new URL is shown
// once, with a Copy button: only its hash is kept, so it cannot be shown again.
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import { useForm, useWatch } from "react-hook-form";
import type { z } from "zod";
import { formatDateTime } from "~/components/format";
import { ExpiryFields, expiryFieldOf } from "~/components/forms/expiry-fields";
import { Field } from "~/components/forms/field";
import { CreateSecretForm } from "~/components/secrets/create-secret-form";
import { useTRPC } from "~/components/trpc/react";
import { badgeMarkdown } from "~/server/schemas/check";
import { ZShareLinkForm, type TShareLinkFormValues } from "~/server/schemas/share-link";

export interface ShareTarget {
  projectSlug: string;
  experimentSlug: string;
  variants: readonly string[];
  /** Metric keys: a live link's token also opens their status badges. */
  metrics: readonly string[];
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
  const create = useMutation(trpc.share.create.mutationOptions());
  const form = useForm<TShareLinkFormValues, unknown, z.output<typeof ZShareLinkForm>>({
    resolver: zodResolver(ZShareLinkForm),
    defaultValues: { mode: "live", baseline: target.baseline, expiry: "never", expiresOn: "" },
  });
  const { register, formState } = form;
  const [expiry, expiresOn] = useWatch({ control: form.control, name: ["expiry", "expiresOn"] });

  return (
    <CreateSecretForm
      title="New link"
      label="New share link"
      nested
      form={form}
      create={(values) => create.mutateAsync({ projectSlug: target.projectSlug, experimentSlug: target.experimentSlug, ...values })}
      submit={formState.isSubmitting ? "Creating…" : "Create link"}
      // The same link again with another expiry, say, starts from what was chosen.
      keepValues
      fieldOf={expiryFieldOf}
      onCreated={onCreated}
      shown={(link) => ({
        label: "Link created",
        secret: `${target.origin}${link.path}`,
        testId: "share-url",
        copyLabel: "Copy link",
        // A live link's token also opens the metrics' status badges (a snapshot is frozen; badges are not).
        usage:
          link.mode === "live" && target.metrics.length > 0
            ? {
                hint: "Status badges for a README (this link's token opens them):",
                text: target.metrics
                  .map((key) => badgeMarkdown(target.origin, target.experimentSlug, key, link.token, `${target.origin}${link.path}`))
                  .join("\n"),
                copyLabel: "Copy badges",
              }
            : undefined,
        message: (
          <>
            <strong>Copy the link now</strong> — it is shown only once. Anyone with it can see this comparison ({link.mode}
            {link.expiresAt ? `, until ${formatDateTime(link.expiresAt)}` : ", no expiry"}) without signing in.
          </>
        ),
      })}
    >
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
      <div className="row">
        <ExpiryFields
          idPrefix="share"
          label="Expires"
          expiry={register("expiry")}
          expiresOn={register("expiresOn")}
          value={{ expiry, expiresOn }}
          errors={{ expiry: formState.errors.expiry?.message, expiresOn: formState.errors.expiresOn?.message }}
        />
      </div>
    </CreateSecretForm>
  );
}
