"use client";
// The experiment page's "Run" button and its dialog. The form mounts when the dialog opens, so
// each press starts from the experiment's defaults; a started batch shows in the progress panel.
import { useQueryClient } from "@tanstack/react-query";
import { DialogButton } from "~/components/dialog-button";
import { useTRPC } from "~/components/trpc/react";
import { RunForm, type RunTarget } from "./run-form";

export function RunButton({ title, ...target }: RunTarget & { title: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { warmupRuns, measuredRuns } = target;

  return (
    <DialogButton label="Run" title={`Run “${title}”`} id="run-dialog" buttonClassName="button primary">
      {(close) => (
        <>
          <p className="muted small" style={{ margin: 0 }}>
            The project&apos;s agents run {warmupRuns ? `${warmupRuns} warm-up ${warmupRuns === 1 ? "run" : "runs"} (discarded) and ` : ""}
            {measuredRuns} measured {measuredRuns === 1 ? "run" : "runs"} of each chosen variant, as the experiment&apos;s method says. The comparison fills in
            as the runs land.
          </p>
          <RunForm
            target={target}
            onStarted={() => {
              close();
              void queryClient.invalidateQueries({
                queryKey: trpc.job.batches.queryKey({ projectSlug: target.projectSlug, experimentSlug: target.experimentSlug }),
              });
            }}
          />
        </>
      )}
    </DialogButton>
  );
}
