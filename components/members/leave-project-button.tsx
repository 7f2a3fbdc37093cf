"use client";
// Anyone may leave a project; the only owner is told why they cannot instead.
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "~/components/trpc/react";

export function LeaveProjectButton({ projectSlug, projectName }: { projectSlug: string; projectName: string }) {
  const trpc = useTRPC();
  const leave = useMutation(trpc.member.leave.mutationOptions());
  const [error, setError] = useState<string>();
  const onClick = async () => {
    if (!window.confirm(`Leave "${projectName}"? You lose access until an owner invites you again.`)) return;
    setError(undefined);
    try {
      await leave.mutateAsync({ projectSlug });
    } catch (cause) {
      setError(cause instanceof Error ? cause.message : "Something went wrong");
      return;
    }
    // A full load: every cached page of this project is now out of reach.
    window.location.assign(new URL("/", window.location.href));
  };
  return (
    <div className="stack-tight">
      <div>
        <button type="button" className="button danger" onClick={onClick} disabled={leave.isPending}>
          {leave.isPending ? "Leaving…" : "Leave project"}
        </button>
      </div>
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
