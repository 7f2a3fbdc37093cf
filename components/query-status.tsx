// What a list shows before it has rows: "Loading…" while its query runs, the error if it failed.
export function QueryStatus({ query }: { query: { isPending: boolean; error: { message: string } | null } }) {
  if (query.error) {
    return (
      <p className="error" role="alert">
        {query.error.message}
      </p>
    );
  }
  return query.isPending ? <p className="muted">Loading…</p> : null;
}
