// The columns of a list of stored secrets (API keys, enrollment tokens): the name, the first
// characters (all that is kept readable), who created it when, its expiry where it can have one,
// when it was last used, and its status.
import { formatDateTime } from "~/components/format";
import { personLabel } from "~/server/display/display";
import type { RevokeColumn } from "./revoke-table";

interface StoredSecret {
  name: string;
  prefix: string;
  createdAt: Date;
  createdBy: { name: string; email: string } | null;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  expiresAt?: Date | null;
  /** Where the server tells (it knows the time): active, expired or revoked. */
  status?: "active" | "expired" | "revoked";
}

/** `prefix`: the prefix column's header, e.g. "Key"; `expires`: whether the secret can expire. */
export function storedSecretColumns({ prefix, expires = false }: { prefix: string; expires?: boolean }): RevokeColumn<StoredSecret>[] {
  const status = (row: StoredSecret) => row.status ?? (row.revokedAt ? "revoked" : "active");
  return [
    { header: "Name", cell: (row) => row.name },
    { header: prefix, narrowHide: true, cell: (row) => <code>{row.prefix}…</code> },
    {
      header: "Created",
      narrowHide: true,
      className: "small muted",
      cell: (row) => `${formatDateTime(row.createdAt)}${row.createdBy ? ` by ${personLabel(row.createdBy)}` : ""}`,
    },
    ...(expires ? [{ header: "Expires", narrowHide: true, className: "small muted", cell: (row: StoredSecret) => whenOrNever(row.expiresAt ?? null) }] : []),
    { header: "Last used", narrowHide: true, className: "small muted", cell: (row) => whenOrNever(row.lastUsedAt) },
    { header: "Status", cell: (row) => <span className={status(row) === "active" ? "badge good" : "badge"}>{status(row)}</span> },
  ];
}

function whenOrNever(date: Date | null): string {
  return date ? formatDateTime(date) : "never";
}
