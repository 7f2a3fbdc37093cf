"use client";
// An experiment's share links: what each shows, its status, views and expiry, with "Change
// expiry" and "Revoke". The token itself is never shown again, only its first characters.
import { useMutation, useQuery } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useState } from "react";
import { formatDateTime, plural } from "~/components/format";
import { QueryStatus } from "~/components/query-status";
import { useTRPC } from "~/components/trpc/react";
import type { AppRouter } from "~/server/api/root";
import { ExpiryEditor } from "./expiry-editor";

type ShareLink = inferRouterOutputs<AppRouter>["share"]["list"][number];

const statusBadge = { active: "badge good", expired: "badge", revoked: "badge" } as const;

export function ShareLinkList({ projectSlug, experimentSlug, onChanged }: { projectSlug: string; experimentSlug: string; onChanged: () => Promise<unknown> }) {
  const trpc = useTRPC();
  // Fresh each time the dialog opens: view counts change while it is closed.
  const links = useQuery({ ...trpc.share.list.queryOptions({ projectSlug, experimentSlug }), refetchOnMount: "always" });
  return (
    <section aria-labelledby="share-links-heading">
      <h3 id="share-links-heading">Links to this experiment</h3>
      <QueryStatus query={links} />
      {links.data?.length === 0 ? <p className="muted small">No links yet.</p> : null}
      {links.data?.length ? (
        <ul className="share-links" aria-label="Share links">
          {links.data.map((link) => (
            <ShareLinkItem key={link.id} link={link} projectSlug={projectSlug} onChanged={onChanged} />
          ))}
        </ul>
      ) : null}
    </section>
  );
}

function ShareLinkItem({ link, projectSlug, onChanged }: { link: ShareLink; projectSlug: string; onChanged: () => Promise<unknown> }) {
  const trpc = useTRPC();
  const revoke = useMutation(trpc.share.revoke.mutationOptions());
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState<string>();
  const name = `${link.prefix}…`;

  const onRevoke = async () => {
    if (!window.confirm(`Revoke the link ${name}? Anyone opening it will get "not available" from now on. This cannot be undone.`)) return;
    setError(undefined);
    try {
      await revoke.mutateAsync({ projectSlug, linkId: link.id });
      await onChanged();
    } catch (problem) {
      setError(problem instanceof Error ? problem.message : String(problem));
    }
  };

  return (
    <li className="share-link" aria-label={`Link ${name}`} data-status={link.status}>
      <div className="share-link-head">
        <code>{name}</code>
        <span className="badge">{link.mode}</span>
        <span className={statusBadge[link.status]}>{link.status}</span>
      </div>
      <dl className="facts small">
        <dt>Created</dt>
        <dd>
          {formatDateTime(link.createdAt)} by {link.createdBy?.name ?? "a former member"}
        </dd>
        {link.baseline ? (
          <>
            <dt>Compared against</dt>
            <dd>{link.baseline}</dd>
          </>
        ) : null}
        <dt>{link.status === "revoked" ? "Revoked" : "Expires"}</dt>
        <dd>{link.status === "revoked" ? formatDateTime(link.revokedAt) : link.expiresAt ? formatDateTime(link.expiresAt) : "never"}</dd>
        <dt>Views</dt>
        <dd>
          {plural(link.viewCount, "view")}
          {link.lastViewedAt ? <span className="muted">, last {formatDateTime(link.lastViewedAt)}</span> : null}
        </dd>
      </dl>
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
      {link.status === "revoked" ? null : editing ? (
        <ExpiryEditor
          projectSlug={projectSlug}
          link={{ id: link.id, name }}
          onDone={async (changed) => {
            setEditing(false);
            if (changed) await onChanged();
          }}
        />
      ) : (
        <div className="actions">
          <button type="button" className="button small" onClick={() => setEditing(true)} aria-label={`Change expiry of ${name}`}>
            Change expiry
          </button>
          <button type="button" className="button small danger" onClick={() => void onRevoke()} disabled={revoke.isPending} aria-label={`Revoke ${name}`}>
            Revoke
          </button>
        </div>
      )}
    </li>
  );
}
