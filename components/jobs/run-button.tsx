"use client";
// The experiment page's "Run" button and its dialog. The form mounts when the dialog opens, so
// each press starts from the experiment's defaults; a started batch shows in the progress panel.
import { useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { useTRPC } from "~/components/trpc/react";
import { RunForm, type RunTarget } from "./run-form";

export function RunButton({ title, ...target }: RunTarget & { title: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const dialog = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useState(false);

  return (
    <>
      <button
        type="button"
        className="button primary"
        aria-haspopup="dialog"
        onClick={() => {
          setOpen(true);
          dialog.current?.showModal();
        }}
      >
        Run
      </button>
      <dialog
        ref={dialog}
        className="dialog"
        aria-labelledby="run-dialog-title"
        onClose={() => setOpen(false)}
        onClick={(event) => {
          if (event.target === dialog.current) dialog.current.close();
        }}
      >
        <div className="dialog-box">
          <div className="dialog-head">
            <h2 id="run-dialog-title">Run “{title}”</h2>
            <button type="button" className="button small" onClick={() => dialog.current?.close()} aria-label="Close">
              ✕
            </button>
          </div>
          <p className="muted small" style={{ margin: 0 }}>
            The project&apos;s agents run {target.warmupRuns ? `${target.warmupRuns} warm-up ${target.warmupRuns === 1 ? "run" : "runs"} (discarded) and ` : ""}
            {target.measuredRuns} measured {target.measuredRuns === 1 ? "run" : "runs"} of each chosen variant, as the experiment&apos;s method says. The comparison fills in as
            the runs land.
          </p>
          {open ? (
            <RunForm
              target={target}
              onStarted={() => {
                dialog.current?.close();
                void queryClient.invalidateQueries({ queryKey: trpc.job.batches.queryKey({ projectSlug: target.projectSlug, experimentSlug: target.experimentSlug }) });
              }}
            />
          ) : null}
        </div>
      </dialog>
    </>
  );
}
