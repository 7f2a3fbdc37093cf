"use client";

export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
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
