import type { Metadata } from "next";
import Link from "next/link";
import { Suspense, type ReactNode } from "react";
import { UserMenu } from "~/components/auth/user-menu";
import { MainNav } from "~/components/main-nav";
import { NavigationProgress } from "~/components/navigation-progress";
import { TRPCReactProvider } from "~/components/trpc/react";
import { publicOrigin } from "./_lib/public-origin";
import { sessionUser } from "./_lib/trpc-server";
import "./globals.css";

export async function generateMetadata(): Promise<Metadata> {
  return {
    // Absolute URLs in link previews (og:image) point where people reach Versus.
    metadataBase: new URL(await publicOrigin()),
    title: { default: "Versus", template: "%s · Versus" },
    description: "Performance experiments with before/after verdicts you can trust.",
    icons: { icon: "/favicon.svg" },
  };
}

export default async function RootLayout({ children }: { children: ReactNode }) {
  const user = await sessionUser();
  return (
    <html lang="en">
      <body>
        {/* Its own boundary: it reads the URL's query (useSearchParams), and nothing else may wait on it. */}
        <Suspense fallback={null}>
          <NavigationProgress />
        </Suspense>
        <header className="topbar">
          <div className="topbar-inner">
            <Link href="/" className="brand">
              Ver<span>sus</span>
            </Link>
            <MainNav />
            {user ? <UserMenu user={user} /> : null}
          </div>
        </header>
        <TRPCReactProvider>
          <main>{children}</main>
        </TRPCReactProvider>
      </body>
    </html>
  );
}
