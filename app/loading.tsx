export default function Loading() {
  return (
    <p className="muted" aria-live="polite">
      Loading…
    </p>
  );
}
