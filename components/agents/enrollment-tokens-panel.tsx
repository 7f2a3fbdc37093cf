"use client";
// What a member sees on the Agents page: the create form and the list of tokens with their
// status and Revoke for the ones still usable, kept in step.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { RevokeTable } from "~/components/secrets/revoke-table";
import { storedSecretColumns } from "~/components/secrets/stored-secret-columns";
import { useTRPC } from "~/components/trpc/react";
import { NewEnrollmentTokenForm } from "./new-enrollment-token-form";

export function EnrollmentTokensPanel({ projectSlug, origin }: { projectSlug: string; origin: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const tokens = useQuery(trpc.enrollmentToken.list.queryOptions({ projectSlug }));
  const revoke = useMutation(trpc.enrollmentToken.revoke.mutationOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.enrollmentToken.list.queryKey({ projectSlug }) });
  return (
    <>
      <NewEnrollmentTokenForm projectSlug={projectSlug} origin={origin} onCreated={refresh} />
      <RevokeTable
        title="Enrollment tokens"
        rows={tokens}
        empty="No enrollment tokens yet."
        columns={storedSecretColumns({ prefix: "Token", expires: true })}
        rowName={(token) => token.name}
        revoke={{
          offered: (token) => token.status !== "revoked",
          confirm: (token) =>
            `Revoke "${token.name}"? No new agent can enroll with it. Agents that already enrolled have credentials of their own and keep working.`,
          run: (token) => revoke.mutateAsync({ projectSlug, tokenId: token.id }),
        }}
        onRevoked={refresh}
      />
    </>
  );
}
