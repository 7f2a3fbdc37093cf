// /s/<token>: one experiment's comparison for anyone holding the link, without signing in, and
// nothing else: title, hypothesis, variants and metrics, the comparison tables and the charts.
// No links into the project, no run ids, no samples, no controls that need an account (the
// charts' SVG/PNG downloads work in the browser alone). A revoked, expired or unknown token is a
// plain 404 that says nothing about the experiment.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ChartsSection } from "~/components/charts/charts-section";
import { ComparisonTables } from "~/components/experiments/comparison-table";
import { DefinitionTables } from "~/components/experiments/definition-tables";
import { SharedLabel } from "~/components/share/shared-label";
import { shareDescription } from "~/server/reports/share-headline";
import { sharedComparison } from "./shared";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ token: string }> };

// The token is in the URL: it must not travel on in a Referer header, and search engines must
// not index what a link was meant for a few people to see.
const privacy = { robots: { index: false, follow: false, nocache: true }, referrer: "no-referrer" } satisfies Metadata;

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { token } = await params;
  const shared = await sharedComparison(token);
  // Before anything streams: the answer is an HTTP 404, for browsers and link unfurlers alike.
  if (!shared) notFound();
  const title = `${shared.experiment.title} — Versus`;
  const description = shareDescription(shared.headlines);
  // The preview image (opengraph-image.tsx) is added by Next.js; the root layout's metadataBase
  // makes its URL absolute.
  return {
    ...privacy,
    title: { absolute: title },
    description,
    openGraph: { type: "article", siteName: "Versus", title, description, url: `/s/${token}` },
    twitter: { card: "summary_large_image", title, description },
  };
}

export default async function SharedComparisonPage({ params }: Params) {
  const { token } = await params;
  const shared = await sharedComparison(token);
  if (!shared) notFound();
  const { experiment, comparison, charts, chartsError } = shared;

  return (
    <article aria-labelledby="shared-title">
      <div className="page-head">
        <div>
          <p className="small muted" style={{ margin: 0 }}>
            Shared comparison <SharedLabel mode={shared.mode} snapshotTakenAt={shared.snapshotTakenAt} />
          </p>
          <h1 id="shared-title">{experiment.title}</h1>
        </div>
      </div>

      <section className="card" aria-labelledby="hypothesis-heading">
        <h2 id="hypothesis-heading">Hypothesis</h2>
        {experiment.hypothesis ? <p style={{ margin: 0 }}>{experiment.hypothesis}</p> : <p className="muted">No hypothesis was written.</p>}
      </section>

      <ComparisonTables comparison={comparison} />

      {charts ? <ChartsSection charts={{ data: charts }} /> : <ChartsSection charts={{ error: chartsError ?? "the charts could not be drawn" }} />}

      <DefinitionTables experiment={experiment} />
    </article>
  );
}
