import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { MainNav } from "~/components/main-nav";
import { TRPCReactProvider } from "~/components/trpc/react";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Versus", template: "%s · Versus" },
  description: "Performance experiments with before/after verdicts you can trust.",
  icons: { icon: "/favicon.svg" },
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <header className="topbar">
          <div className="topbar-inner">
            <Link href="/" className="brand">
              Ver<span>sus</span>
            </Link>
            <MainNav />
          </div>
        </header>
        <TRPCReactProvider>
          <main>{children}</main>
        </TRPCReactProvider>
      </body>
    </html>
  );
}
