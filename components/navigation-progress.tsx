"use client";
// A thin bar at the top of the window while a client navigation loads, so a click on a link
// whose page takes a while is seen to have done something.
//
// Not a root loading.tsx: that wraps every page in a Suspense boundary, and a page streamed
// behind its fallback has already answered HTTP 200 when it calls notFound(), so missing pages
// would stop answering 404. The App Router has no navigation events, and useLinkStatus works
// only inside each <Link>; so this watches from outside: a click that Next's <Link> took over (it
// cancels the browser's own navigation and navigates on the client) to another address starts
// the bar, and the address changing ends it — wherever it lands, a redirect included.
import { usePathname, useSearchParams } from "next/navigation";
import { useEffect, useState } from "react";

/** Where a click on `event`'s link goes, when it is a client navigation away from this page. */
function clientNavigationTarget(event: MouseEvent): string | undefined {
  // <Link> calls preventDefault only for the clicks it navigates itself: not for modified
  // clicks, downloads, other origins or other targets, which the browser handles.
  if (!event.defaultPrevented || !(event.target instanceof Element)) return undefined;
  const anchor = event.target.closest("a[href]");
  if (!(anchor instanceof HTMLAnchorElement) || anchor.origin !== window.location.origin) return undefined;
  const target = anchor.pathname + anchor.search;
  // Same page, or only another #fragment: nothing to load.
  return target === window.location.pathname + window.location.search ? undefined : target;
}

export function NavigationProgress() {
  const here = `${usePathname()}?${useSearchParams().toString()}`;
  // The address the pending navigation started from; the bar shows while it is still the current one.
  const [from, setFrom] = useState<string>();
  const [seen, setSeen] = useState(here);
  if (seen !== here) {
    // The address changed: whatever was pending has landed.
    setSeen(here);
    setFrom(undefined);
  }

  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      if (clientNavigationTarget(event)) setFrom(here);
    };
    // On window, so it runs after React's own handlers (on the document) have called <Link>'s.
    window.addEventListener("click", onClick);
    return () => window.removeEventListener("click", onClick);
  }, [here]);

  return from === here ? <div className="nav-progress" role="progressbar" aria-label="Loading the page" /> : null;
}
