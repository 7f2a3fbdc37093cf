"use client";
// Signed in as the invited address: one click joins the project.
import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { SubmitButton } from "~/components/forms/submit-button";
import { useHydrated } from "~/components/forms/use-hydrated";
import { useTRPC } from "~/components/trpc/react";

export function JoinForm({ token, projectName }: { token: string; projectName: string }) {
  const trpc = useTRPC();
  const hydrated = useHydrated();
  const accept = useMutation(trpc.invitation.accept.mutationOptions());
  const [formError, setFormError] = useState<string>();
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(undefined);
    try {
      const { projectSlug } = await accept.mutateAsync({ token });
      window.location.assign(new URL(`/p/${projectSlug}`, window.location.href));
    } catch (error) {
      setFormError(error instanceof Error ? error.message : "Something went wrong");
    }
  };
  return (
    <form className="stack" onSubmit={onSubmit} data-ready={hydrated} aria-label="Join project">
      {formError ? (
        <div className="alert" role="alert">
          {formError}
        </div>
      ) : null}
      <div className="form-actions">
        <SubmitButton hydrated={hydrated} submitting={accept.isPending}>
          Join {projectName}
        </SubmitButton>
      </div>
    </form>
  );
}
