"use client";
// A project's enrollment tokens with their status, and Revoke for the ones still usable.
import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { formatDateTime } from "~/components/format";
import { useTRPC } from "~/components/trpc/react";
import type { TEnrollmentTokenStatus } from "~/server/schemas/enrollment-token";
import { personLabel } from "~/server/display";

const statusBadge: Record<TEnrollmentTokenStatus, string> = { active: "badge good", expired: "badge", revoked: "badge" };

export function EnrollmentTokensTable({ projectSlug, onRevoked }: { projectSlug: string; onRevoked: () => Promise<unknown> }) {
  const trpc = useTRPC();
  const tokens = useQuery(trpc.enrollmentToken.list.queryOptions({ projectSlug }));
  const revoke = useMutation(trpc.enrollmentToken.revoke.mutationOptions());
  const [revokeError, setRevokeError] = useState<string>();

  const onRevoke = async (id: string, name: string) => {
    if (!window.confirm(`Revoke "${name}"? No new agent can enroll with it. Agents that already enrolled have credentials of their own and keep working.`)) return;
    setRevokeError(undefined);
    try {
      await revoke.mutateAsync({ projectSlug, tokenId: id });
    } catch (error) {
      setRevokeError(error instanceof Error ? error.message : "Revoking failed");
    }
    await onRevoked();
  };

  return (
    <section className="card" aria-labelledby="enrollment-tokens-heading">
      <h2 id="enrollment-tokens-heading">Enrollment tokens</h2>
      {revokeError ? (
        <div className="alert" role="alert">
          {revokeError}
        </div>
      ) : null}
      {tokens.isPending ? <p className="muted">Loading…</p> : null}
      {tokens.error ? (
        <p className="error" role="alert">
          {tokens.error.message}
        </p>
      ) : null}
      {tokens.data && tokens.data.length === 0 ? <p className="empty">No enrollment tokens yet.</p> : null}
      {tokens.data && tokens.data.length > 0 ? (
        <div className="table-wrap">
          <table aria-label="Enrollment tokens">
            <thead>
              <tr>
                <th>Name</th>
                <th data-narrow="hide">Token</th>
                <th data-narrow="hide">Created</th>
                <th data-narrow="hide">Expires</th>
                <th data-narrow="hide">Last used</th>
                <th>Status</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {tokens.data.map((token) => (
                <tr key={token.id}>
                  <td>{token.name}</td>
                  <td data-narrow="hide">
                    <code>{token.prefix}…</code>
                  </td>
                  <td className="small muted" data-narrow="hide">
                    {formatDateTime(token.createdAt)}
                    {token.createdBy ? ` by ${personLabel(token.createdBy)}` : ""}
                  </td>
                  <td className="small muted" data-narrow="hide">
                    {token.expiresAt ? formatDateTime(token.expiresAt) : "never"}
                  </td>
                  <td className="small muted" data-narrow="hide">
                    {token.lastUsedAt ? formatDateTime(token.lastUsedAt) : "never"}
                  </td>
                  <td>
                    <span className={statusBadge[token.status]}>{token.status}</span>
                  </td>
                  <td>
                    {token.status === "revoked" ? null : (
                      <button type="button" className="button small danger" onClick={() => onRevoke(token.id, token.name)} aria-label={`Revoke ${token.name}`}>
                        Revoke
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
