"use client";
// The experiment page's "Share" button and its dialog: make a link, then manage the
// experiment's links below. The dialog's contents mount when it opens, so a new link's URL is
// gone once the dialog closes: it is shown once.
import { useQueryClient } from "@tanstack/react-query";
import { DialogButton } from "~/components/dialog-button";
import { useTRPC } from "~/components/trpc/react";
import { CreateShareLinkForm, type ShareTarget } from "./create-share-link-form";
import { ShareLinkList } from "./share-link-list";

export function ShareButton({ title, ...target }: ShareTarget & { title: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refresh = () =>
    queryClient.invalidateQueries({ queryKey: trpc.share.list.queryKey({ projectSlug: target.projectSlug, experimentSlug: target.experimentSlug }) });

  return (
    <DialogButton label="Share" title={`Share “${title}”`} id="share-dialog">
      {() => (
        <>
          <p className="muted small" style={{ marginTop: 0 }}>
            A share link shows this experiment&apos;s title, hypothesis, comparison and charts to anyone who has it, without signing in — nothing else of the
            project.
          </p>
          <CreateShareLinkForm target={target} onCreated={refresh} />
          <ShareLinkList projectSlug={target.projectSlug} experimentSlug={target.experimentSlug} onChanged={refresh} />
        </>
      )}
    </DialogButton>
  );
}
