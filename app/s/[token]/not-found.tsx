// A share link that does not work: unknown, revoked and expired look the same, so the page
// tells nothing about what the link once showed.
export default function ShareLinkNotFound() {
  return (
    <div className="card empty">
      <h1>Link not available</h1>
      <p>This share link does not exist, was revoked, or has expired. Ask whoever sent it for a new one.</p>
    </div>
  );
}
