"use client";
// Create (secret shown once), list and revoke a project's API keys.
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { Field, invalidProps } from "~/components/forms/field";
import { CreateSecretForm } from "~/components/secrets/create-secret-form";
import { RevokeTable } from "~/components/secrets/revoke-table";
import { storedSecretColumns } from "~/components/secrets/stored-secret-columns";
import { namedSecret } from "~/components/secrets/secret-shown-once";
import { useTRPC } from "~/components/trpc/react";
import { ZCreateApiKey } from "~/server/schemas/api-key";

type Values = z.input<typeof ZCreateApiKey>;

export function ApiKeysPanel({ projectSlug, origin }: { projectSlug: string; origin: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const keys = useQuery(trpc.apiKey.list.queryOptions({ projectSlug }));
  const create = useMutation(trpc.apiKey.create.mutationOptions());
  const revoke = useMutation(trpc.apiKey.revoke.mutationOptions());
  const form = useForm<Values, unknown, z.output<typeof ZCreateApiKey>>({
    resolver: zodResolver(ZCreateApiKey),
    defaultValues: { projectSlug, name: "", scope: "upload" },
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.apiKey.list.queryKey({ projectSlug }) });
  const nameError = form.formState.errors.name?.message;

  return (
    <>
      <CreateSecretForm
        title="New API key"
        form={form}
        create={(values) => create.mutateAsync(values)}
        submit="Create key"
        onCreated={refresh}
        shown={(key) =>
          namedSecret("API key", key, {
            hint: "Use it from a shell or CI:",
            text: `export VERSUS_URL=${origin}\nexport VERSUS_API_KEY=${key.secret}\n${
              key.scope === "run"
                ? "npx versus run --experiment <slug> --commit $(git rev-parse HEAD)"
                : "npx versus import results.json --format jmh --experiment <slug> --create"
            }`,
            copyLabel: "Copy commands",
          })
        }
      >
        <div className="row">
          <Field id="key-name" label="Name" hint="Where it will be used, e.g. “GitHub Actions”" error={nameError}>
            <input id="key-name" type="text" {...form.register("name")} {...invalidProps("key-name", nameError)} />
          </Field>
          <Field id="key-scope" label="May" hint="Starting runs lets CI queue batches on this project's agents (versus run)">
            <select id="key-scope" {...form.register("scope")}>
              <option value="upload">Upload results and read comparisons</option>
              <option value="run">Also start and cancel runs</option>
            </select>
          </Field>
        </div>
      </CreateSecretForm>

      <RevokeTable
        title="Keys"
        label="API keys"
        rows={keys}
        empty="No API keys yet."
        columns={[
          ...storedSecretColumns({ prefix: "Key" }).slice(0, 1),
          { header: "May", cell: (key) => (key.scope === "run" ? "upload, start runs" : "upload") },
          ...storedSecretColumns({ prefix: "Key" }).slice(1),
        ]}
        rowName={(key) => key.name}
        revoke={{
          offered: (key) => !key.revokedAt,
          confirm: (key) => `Revoke "${key.name}"? ${key.scope === "run" ? "Uploads and runs" : "Uploads"} using it will be refused from now on.`,
          run: (key) => revoke.mutateAsync({ projectSlug, keyId: key.id }),
        }}
        onRevoked={refresh}
      />
    </>
  );
}
