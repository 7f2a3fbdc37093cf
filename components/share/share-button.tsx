"use client";
// The experiment page's "Share" button and its dialog: make a link, then manage the
// experiment's links below. The dialog's contents mount when it opens, so a new link's URL is
// gone once the dialog closes: it is shown once.
import { useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { useTRPC } from "~/components/trpc/react";
import { CreateShareLinkForm, type ShareTarget } from "./create-share-link-form";
import { ShareLinkList } from "./share-link-list";

export function ShareButton({ title, ...target }: ShareTarget & { title: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const dialog = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.share.list.queryKey({ projectSlug: target.projectSlug, experimentSlug: target.experimentSlug }) });

  return (
    <>
      <button
        type="button"
        className="button"
        aria-haspopup="dialog"
        onClick={() => {
          setOpen(true);
          dialog.current?.showModal();
        }}
      >
        Share
      </button>
      <dialog
        ref={dialog}
        className="dialog"
        aria-labelledby="share-dialog-title"
        onClose={() => setOpen(false)}
        // A click on the backdrop (the dialog element itself, outside its box) closes it.
        onClick={(event) => {
          if (event.target === dialog.current) dialog.current.close();
        }}
      >
        <div className="dialog-box">
          <div className="dialog-head">
            <h2 id="share-dialog-title">Share “{title}”</h2>
            <button type="button" className="button small" onClick={() => dialog.current?.close()} aria-label="Close">
              ✕
            </button>
          </div>
          <p className="muted small" style={{ marginTop: 0 }}>
            A share link shows this experiment&apos;s title, hypothesis, comparison and charts to anyone who has it, without signing in — nothing else of the project.
          </p>
          {open ? (
            <>
              <CreateShareLinkForm target={target} onCreated={refresh} />
              <ShareLinkList projectSlug={target.projectSlug} experimentSlug={target.experimentSlug} onChanged={refresh} />
            </>
          ) : null}
        </div>
      </dialog>
    </>
  );
}
