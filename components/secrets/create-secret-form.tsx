"use client";
// A form that creates something holding a secret (an API key, an enrollment token, a share
// link) and then shows the secret its only time. The caller brings the form's fields; this runs
// the submission: the form-wide alert, server problems beside their fields, the reset for the
// next one, and the box with the secret, scrolled into view (on a phone it lands below the fold).
import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import type { FieldValues, Path, UseFormReturn } from "react-hook-form";
import { applyServerErrors } from "~/components/forms/server-errors";
import { SubmitButton } from "~/components/forms/submit-button";
import { useHydrated } from "~/components/forms/use-hydrated";
import { SecretShownOnce, type SecretShownOnceProps } from "./secret-shown-once";

interface CreateSecretFormProps<Values extends FieldValues, Output, Created> {
  /** The heading, e.g. "New API key". */
  title: string;
  /** The form's accessible name; the title when omitted. */
  label?: string;
  /** Inside a dialog or another card: a plain section with a smaller heading instead of a card. */
  nested?: boolean;
  form: UseFormReturn<Values, unknown, Output>;
  create: (values: Output) => Promise<Created>;
  /** What the box shows once the secret exists. */
  shown: (created: Created) => Omit<SecretShownOnceProps, "boxRef">;
  /** The submit button's text, e.g. "Create key". */
  submit: string;
  /** Keep what was entered after creating (the default clears the form for the next one). */
  keepValues?: boolean;
  /** Where a problem the server names by its own field shows in this form; the same name when omitted. */
  fieldOf?: (serverField: string) => string;
  onCreated: () => Promise<unknown>;
  children: ReactNode;
}

export function CreateSecretForm<Values extends FieldValues, Output, Created>(props: CreateSecretFormProps<Values, Output, Created>) {
  const { form, fieldOf, title, nested } = props;
  const headingId = useId();
  const Heading = nested ? "h3" : "h2";
  const hydrated = useHydrated();
  const [shown, setShown] = useState<Omit<SecretShownOnceProps, "boxRef">>();
  const [formError, setFormError] = useState<string>();
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // A block body: newer browsers return a promise from scrollIntoView, and React would take
    // a returned value for the effect's cleanup function.
    box.current?.scrollIntoView({ block: "nearest" });
  }, [shown]);

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(undefined);
    try {
      const created = await props.create(values);
      setShown(props.shown(created));
      if (!props.keepValues) form.reset();
      await props.onCreated();
    } catch (error) {
      setFormError(applyServerErrors<Values>(error, (name, problem) => form.setError(fieldOf ? (fieldOf(name) as Path<Values>) : name, problem)));
    }
  });

  return (
    <section className={nested ? undefined : "card"} aria-labelledby={headingId}>
      <Heading id={headingId}>{title}</Heading>
      <form className="stack" onSubmit={onSubmit} noValidate data-ready={hydrated} aria-label={props.label ?? title}>
        {formError ? (
          <div className="alert" role="alert">
            {formError}
          </div>
        ) : null}
        {props.children}
        <div className="form-actions">
          <SubmitButton hydrated={hydrated} submitting={form.formState.isSubmitting}>
            {props.submit}
          </SubmitButton>
        </div>
      </form>
      {shown ? <SecretShownOnce {...shown} boxRef={box} /> : null}
    </section>
  );
}
