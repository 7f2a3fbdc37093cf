"use client";
// Create (secret shown once), list and revoke a project's API keys.
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { formatDateTime } from "~/components/format";
import { Field, invalidProps } from "~/components/forms/field";
import { applyServerErrors } from "~/components/forms/server-errors";
import { useHydrated } from "~/components/forms/use-hydrated";
import { CopyNow, SecretShownOnce } from "~/components/secrets/secret-shown-once";
import { useTRPC } from "~/components/trpc/react";
import { ZCreateApiKey } from "~/server/schemas/api-key";
import { SubmitButton } from "~/components/forms/submit-button";
import { personLabel } from "~/server/display";

type Values = z.input<typeof ZCreateApiKey>;

export function ApiKeysPanel({ projectSlug, origin }: { projectSlug: string; origin: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const hydrated = useHydrated();
  const keys = useQuery(trpc.apiKey.list.queryOptions({ projectSlug }));
  const create = useMutation(trpc.apiKey.create.mutationOptions());
  const revoke = useMutation(trpc.apiKey.revoke.mutationOptions());
  const [secret, setSecret] = useState<{ name: string; value: string }>();
  const [formError, setFormError] = useState<string>();
  const form = useForm<Values, unknown, z.output<typeof ZCreateApiKey>>({ resolver: zodResolver(ZCreateApiKey), defaultValues: { projectSlug, name: "" } });
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.apiKey.list.queryKey({ projectSlug }) });

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(undefined);
    try {
      const key = await create.mutateAsync(values);
      setSecret({ name: key.name, value: key.secret });
      form.reset({ projectSlug, name: "" });
      await refresh();
    } catch (error) {
      setFormError(applyServerErrors(error, form.setError));
    }
  });

  const onRevoke = async (id: string, name: string) => {
    if (!window.confirm(`Revoke "${name}"? Uploads using it will be refused from now on.`)) return;
    await revoke.mutateAsync({ projectSlug, keyId: id });
    await refresh();
  };

  const nameError = form.formState.errors.name?.message;
  return (
    <>
      <section className="card" aria-labelledby="new-key">
        <h2 id="new-key">New API key</h2>
        <form className="stack" onSubmit={onSubmit} noValidate data-ready={hydrated} aria-label="New API key">
          {formError ? <div className="alert" role="alert">{formError}</div> : null}
          <div className="row">
            <Field id="key-name" label="Name" hint="Where it will be used, e.g. “GitHub Actions”" error={nameError}>
              <input id="key-name" type="text" {...form.register("name")} {...invalidProps("key-name", nameError)} />
            </Field>
          </div>
          <div className="form-actions">
            <SubmitButton hydrated={hydrated} submitting={form.formState.isSubmitting}>
              Create key
            </SubmitButton>
          </div>
        </form>
        {secret ? (
          <SecretShownOnce
            label="New API key secret"
            message={<CopyNow kind="key" name={secret.name} />}
            secret={secret.value}
            testId="api-key-secret"
            usage={{
              hint: "Use it from a shell or CI:",
              text: `export VERSUS_URL=${origin}\nexport VERSUS_API_KEY=${secret.value}\nnpx versus import results.json --format jmh --experiment <slug> --create`,
              copyLabel: "Copy commands",
            }}
          />
        ) : null}
      </section>

      <section className="card" aria-labelledby="keys-heading">
        <h2 id="keys-heading">Keys</h2>
        {keys.isPending ? <p className="muted">Loading…</p> : null}
        {keys.error ? <p className="error" role="alert">{keys.error.message}</p> : null}
        {keys.data && keys.data.length === 0 ? <p className="empty">No API keys yet.</p> : null}
        {keys.data && keys.data.length > 0 ? (
          <div className="table-wrap">
            <table aria-label="API keys">
              <thead>
                <tr>
                  <th>Name</th>
                  <th>Key</th>
                  <th data-narrow="hide">Created</th>
                  <th data-narrow="hide">Last used</th>
                  <th>Status</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {keys.data.map((key) => (
                  <tr key={key.id}>
                    <td>{key.name}</td>
                    <td>
                      <code>{key.prefix}…</code>
                    </td>
                    <td className="small muted" data-narrow="hide">
                      {formatDateTime(key.createdAt)}
                      {key.createdBy ? ` by ${personLabel(key.createdBy)}` : ""}
                    </td>
                    <td className="small muted" data-narrow="hide">
                      {formatDateTime(key.lastUsedAt)}
                    </td>
                    <td>{key.revokedAt ? <span className="badge">revoked</span> : <span className="badge good">active</span>}</td>
                    <td>
                      {key.revokedAt ? null : (
                        <button type="button" className="button small danger" onClick={() => onRevoke(key.id, key.name)} aria-label={`Revoke ${key.name}`}>
                          Revoke
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </section>
    </>
  );
}
