"use client";
import { DATABASE_UNAVAILABLE_DIGEST, databaseUnavailableWording as unavailable } from "~/server/http/database-unavailable-wording";

export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  // The database is away (a page opened by a link here; opened anew, the server answers 503 itself).
  if (error.digest === DATABASE_UNAVAILABLE_DIGEST) {
    return (
      <div className="card empty" role="alert">
        <h1>{unavailable.title}</h1>
        <p>{unavailable.explanation}</p>
        {/* A fresh load, not reset(): the page must be rendered on the server again. */}
        <button className="button primary" type="button" onClick={() => window.location.reload()}>
          {unavailable.retry}
        </button>
        <p className="muted small">{unavailable.hint}</p>
      </div>
    );
  }
  return (
    <div className="card empty" role="alert">
      <h1>Something went wrong</h1>
      <p className="muted">{error.digest ? `Error reference ${error.digest}. ` : ""}The server log has the details.</p>
      <button className="button" type="button" onClick={reset}>
        Try again
      </button>
    </div>
  );
}
