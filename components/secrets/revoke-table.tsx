"use client";
// A card listing things that hold a secret (API keys, enrollment tokens, invitations) with a
// Revoke button on each row still in force: loading, failure and empty states, the confirmation,
// a failed revocation's message, and the refresh afterwards work the same for all of them.
import { useId, useState, type ReactNode } from "react";
import { QueryStatus } from "~/components/query-status";

export interface RevokeColumn<Row> {
  header: string;
  cell: (row: Row) => ReactNode;
  /** Hidden on a phone-sized screen. */
  narrowHide?: boolean;
  className?: string;
}

interface RevokeTableProps<Row> {
  /** The card's heading. */
  title: string;
  /** The table's accessible name; the title when omitted. */
  label?: string;
  /** What the list query returned so far. */
  rows: { isPending: boolean; error: { message: string } | null; data: Row[] | undefined };
  /** Said instead of the table when there are no rows. */
  empty: string;
  columns: RevokeColumn<Row>[];
  /** The row's name in its button's accessible name, "Revoke <name>". */
  rowName: (row: Row) => string;
  revoke: {
    /** Whether the row gets a button at all (a revoked row does not). */
    offered: (row: Row) => boolean;
    /** The button's text; "Revoke" when omitted. */
    text?: (row: Row) => string;
    /** The question asked before revoking; null revokes without asking. */
    confirm: (row: Row) => string | null;
    run: (row: Row) => Promise<unknown>;
  };
  /** Called after every attempt, failed or not: the list may have changed either way. */
  onRevoked: () => Promise<unknown>;
}

export function RevokeTable<Row extends { id: string }>({ title, label = title, rows, empty, columns, rowName, revoke, onRevoked }: RevokeTableProps<Row>) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string>();
  const headingId = useId();

  const onRevoke = async (row: Row) => {
    const question = revoke.confirm(row);
    if (question !== null && !window.confirm(question)) return;
    setError(undefined);
    setPending(true);
    try {
      await revoke.run(row);
    } catch (problem) {
      setError(problem instanceof Error ? problem.message : "Revoking failed");
    } finally {
      setPending(false);
    }
    await onRevoked();
  };

  return (
    <section className="card" aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      {error ? (
        <div className="alert" role="alert">
          {error}
        </div>
      ) : null}
      <QueryStatus query={rows} />
      {rows.data?.length === 0 ? <p className="empty">{empty}</p> : null}
      {rows.data?.length ? (
        <div className="table-wrap">
          <table aria-label={label}>
            <thead>
              <tr>
                {columns.map((column) => (
                  <th key={column.header} data-narrow={column.narrowHide ? "hide" : undefined}>
                    {column.header}
                  </th>
                ))}
                <th aria-label="Actions" />
              </tr>
            </thead>
            <tbody>
              {rows.data.map((row) => (
                <tr key={row.id}>
                  {columns.map((column) => (
                    <td key={column.header} className={column.className} data-narrow={column.narrowHide ? "hide" : undefined}>
                      {column.cell(row)}
                    </td>
                  ))}
                  <td className="cell-actions">
                    {revoke.offered(row) ? (
                      <button
                        type="button"
                        className="button small danger"
                        onClick={() => void onRevoke(row)}
                        disabled={pending}
                        aria-label={`Revoke ${rowName(row)}`}
                      >
                        {revoke.text?.(row) ?? "Revoke"}
                      </button>
                    ) : null}
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
