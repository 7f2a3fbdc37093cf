"use client";
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useTRPC } from "~/components/trpc/react";

export function DeleteExperimentButton(props: { projectSlug: string; experimentSlug: string; title: string; runCount: number }) {
  const trpc = useTRPC();
  const router = useRouter();
  const remove = useMutation(trpc.experiment.delete.mutationOptions());
  const onClick = async () => {
    const warning = props.runCount ? ` and its ${props.runCount} run(s)` : "";
    if (!window.confirm(`Delete "${props.title}"${warning}? This cannot be undone.`)) return;
    await remove.mutateAsync({ projectSlug: props.projectSlug, experimentSlug: props.experimentSlug });
    router.push(`/p/${props.projectSlug}`);
    router.refresh();
  };
  return (
    <button type="button" className="button danger" onClick={onClick} disabled={remove.isPending}>
      {remove.isPending ? "Deleting…" : "Delete"}
    </button>
  );
}
