"use client";
// What a member sees on the Agents page: the create form and the list, kept in step.
import { useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "~/components/trpc/react";
import { EnrollmentTokensTable } from "./enrollment-tokens-table";
import { NewEnrollmentTokenForm } from "./new-enrollment-token-form";

export function EnrollmentTokensPanel({ projectSlug, origin }: { projectSlug: string; origin: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.enrollmentToken.list.queryKey({ projectSlug }) });
  return (
    <>
      <NewEnrollmentTokenForm projectSlug={projectSlug} origin={origin} onCreated={refresh} />
      <EnrollmentTokensTable projectSlug={projectSlug} onRevoked={refresh} />
    </>
  );
}
