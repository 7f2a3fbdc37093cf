// The before/after summary of an experiment: the baseline picker, then one table per metric
// (metric-comparison.tsx), under "Client" and "Server" headings when the variants have probes.
// All figures come from the server; nothing is computed here.
// Without `basePath` (a share page) there is no picker: a shared link shows one fixed baseline.
import Link from "next/link";
import type { TComparison } from "~/server/schemas/comparison";
import { MetricComparison } from "./metric-comparison";

export function ComparisonTables({ comparison, basePath }: { comparison: TComparison; basePath?: string }) {
  // The server computed which metrics are its probes' (metric.probe) and put them last.
  const client = comparison.metrics.filter((metric) => !metric.probe);
  const server = comparison.metrics.filter((metric) => metric.probe);
  return (
    <section className="card" aria-labelledby="comparison-heading">
      <div className="page-head" style={{ marginBottom: "0.5rem" }}>
        <h2 id="comparison-heading" style={{ margin: 0 }}>
          Comparison{" "}
          <span className="muted small">
            against {comparison.baseline}, α = {comparison.experiment.alpha}
          </span>
        </h2>
        {basePath === undefined ? null : (
          <nav className="actions" aria-label="Baseline">
            <span className="muted small">Baseline:</span>
            {comparison.variants.map((variant) => (
              <Link
                key={variant.name}
                className={variant.isBaseline ? "button small primary" : "button small"}
                aria-current={variant.isBaseline ? "true" : undefined}
                href={`${basePath}?baseline=${encodeURIComponent(variant.name)}`}
                scroll={false}
              >
                {variant.name}
              </Link>
            ))}
          </nav>
        )}
      </div>
      {server.length ? (
        <>
          <h3 className="metric-group" id="comparison-client">
            Client <span className="muted small">what the load generator measured</span>
          </h3>
          {client.map((metric) => (
            <MetricComparison key={metric.key} metric={metric} level={4} />
          ))}
          <h3 className="metric-group" id="comparison-server" data-testid="server-group">
            Server{" "}
            <span className="muted small">
              the system under test, from the variants&apos; probes ({[...new Set(server.map((metric) => metric.probe))].join(", ")})
            </span>
          </h3>
          {server.map((metric) => (
            <MetricComparison key={metric.key} metric={metric} level={4} />
          ))}
        </>
      ) : (
        comparison.metrics.map((metric) => <MetricComparison key={metric.key} metric={metric} />)
      )}
    </section>
  );
}
