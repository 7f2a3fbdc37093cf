// "Showing 21–40 of 900 runs" with buttons to the neighbouring pages, under a paged list.
import { plural } from "~/components/format";

interface PagerProps {
  /** What the list holds, for the text and the buttons' names ("run", "result"). */
  noun: string;
  offset: number;
  limit: number;
  total: number;
  /** Names the list, so two pagers on one page have distinct button names. */
  label: string;
  busy: boolean;
  /** Why the page asked for could not be loaded (the previous one stays shown). */
  error: string | null;
  onPage: (offset: number) => void;
}

export function Pager({ noun, offset, limit, total, label, busy, error, onPage }: PagerProps) {
  if (total <= limit && offset === 0) return null;
  const last = Math.min(offset + limit, total);
  return (
    <nav className="pager" aria-label={`Pages of ${label}`}>
      {error ? (
        <p className="error" role="alert">
          That page of {label} could not be loaded: {error}
        </p>
      ) : null}
      <span className="muted small" role="status">
        Showing {total === 0 ? 0 : offset + 1}–{last} of {plural(total, noun)}
        {busy ? " · loading…" : ""}
      </span>
      <span className="actions">
        <button type="button" className="button" disabled={busy || offset === 0} onClick={() => onPage(0)}>
          First
        </button>
        <button type="button" className="button" disabled={busy || offset === 0} onClick={() => onPage(Math.max(0, offset - limit))}>
          Previous
        </button>
        <button type="button" className="button" disabled={busy || last >= total} onClick={() => onPage(offset + limit)}>
          Next
        </button>
      </span>
    </nav>
  );
}
