"use client";
// The app's main navigation. Share pages (/s/…) are for readers outside the project: they get
// the product's name and nothing that leads into the app.
import Link from "next/link";
import { usePathname } from "next/navigation";

export function MainNav() {
  if (usePathname().startsWith("/s/")) return null;
  return (
    <nav aria-label="Main">
      <Link href="/">Projects</Link>
      <Link href="/api-docs">API</Link>
    </nav>
  );
}
