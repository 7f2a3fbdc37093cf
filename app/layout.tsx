import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { UserMenu } from "~/components/auth/user-menu";
import { TRPCReactProvider } from "~/components/trpc/react";
import { api } from "./_lib/trpc-server";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Versus", template: "%s · Versus" },
  description: "Performance experiments with before/after verdicts you can trust.",
  icons: { icon: "/favicon.svg" },
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  const { user } = await (await api()).setup.status();
  return (
    <html lang="en">
      <body>
        <header className="topbar">
          <div className="topbar-inner">
            <Link href="/" className="brand">
              Ver<span>sus</span>
            </Link>
            <nav aria-label="Main">
              <Link href="/">Projects</Link>
              <Link href="/api-docs">API</Link>
            </nav>
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
