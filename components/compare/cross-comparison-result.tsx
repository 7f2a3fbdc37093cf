// The result of comparing two run sets: what each side is, then one table per metric in the
// experiment page's layout (the shared MetricComparison), "before" as the baseline.
import Link from "next/link";
import { MetricComparison } from "~/components/experiments/metric-comparison";
import type { TCrossComparison, TRunSet } from "~/server/schemas/cross-comparison";

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;

function SetDescription({ set, projectSlug }: { set: TRunSet; projectSlug: string }) {
  return (
    <>
      <Link href={`/p/${projectSlug}/e/${set.experiment.slug}`}>{set.experiment.title}</Link>
      {" · "}
      {set.variant ?? "all variants"}
      {" · "}
      {set.gitCommit ? <code>{set.gitCommit.slice(0, 12)}</code> : "all commits"}
      <span className="muted"> — {plural(set.runs, "run")}</span>
    </>
  );
}

export function CrossComparisonResult({ result, projectSlug }: { result: TCrossComparison; projectSlug: string }) {
  return (
    <section className="card" aria-labelledby="cross-comparison-heading">
      <h2 id="cross-comparison-heading">
        Result <span className="muted small">after against before, α = {result.alpha}</span>
      </h2>
      <dl className="facts">
        <dt>Before</dt>
        <dd>
          <SetDescription set={result.before} projectSlug={projectSlug} />
        </dd>
        <dt>After</dt>
        <dd>
          <SetDescription set={result.after} projectSlug={projectSlug} />
        </dd>
      </dl>
      {result.notes.length ? (
        <p className="muted small" role="note">
          {result.notes.join(" · ")}
        </p>
      ) : null}
      {result.metrics.length === 0 ? <p className="muted">Neither experiment has metrics.</p> : null}
      {result.metrics.map((metric) => (
        <MetricComparison key={metric.key} metric={metric} />
      ))}
    </section>
  );
}
