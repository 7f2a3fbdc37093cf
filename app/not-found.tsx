import Link from "next/link";

export default function NotFound() {
  return (
    <div className="card empty">
      <h1>Not found</h1>
      <p>There is nothing at this address.</p>
      <Link className="button" href="/">
        Back to projects
      </Link>
    </div>
  );
}
