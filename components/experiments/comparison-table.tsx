// The before/after summary per metric: each variant's median with its CI, the change against
// the baseline with its CI, the Mann-Whitney p (Holm-adjusted) and the verdict, worded and
// coloured by the metric's direction. All figures come from the server; nothing is computed here.
import Link from "next/link";
import { formatValue } from "~/components/format";
import type { TComparison } from "~/server/schemas/comparison";

const verdictLabel = { better: "better", worse: "worse", no_change: "no significant change", insufficient_data: "not enough data" } as const;

function formatPercent(value: number | null | undefined): string {
  if (value === null || value === undefined) return "—";
  return `${value > 0 ? "+" : value < 0 ? "−" : "±"}${Math.abs(value).toFixed(Math.abs(value) < 10 ? 2 : 1)}%`;
}

function formatP(p: number | null | undefined): string {
  if (p === null || p === undefined) return "—";
  return p < 0.001 ? "< 0.001" : p.toFixed(3);
}

export function ComparisonTables({ comparison, basePath }: { comparison: TComparison; basePath: string }) {
  return (
    <section className="card" aria-labelledby="comparison-heading">
      <div className="page-head" style={{ marginBottom: "0.5rem" }}>
        <h2 id="comparison-heading" style={{ margin: 0 }}>
          Comparison <span className="muted small">against {comparison.baseline}, α = {comparison.experiment.alpha}</span>
        </h2>
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
      </div>
      {comparison.metrics.map((metric) => {
        const result = metric.comparison;
        return (
          <div key={metric.key} style={{ marginTop: "1rem" }}>
            <h3>
              <code>{metric.key}</code>{" "}
              <span className="muted small">
                {metric.unit} · {metric.direction === "lower_is_better" ? "lower is better" : "higher is better"} · each run&apos;s {metric.aggregation}
              </span>
            </h3>
            {!result ? (
              <p className="muted small">{metric.reason}</p>
            ) : (
              <div className="table-wrap">
                <table aria-label={`Comparison of ${metric.key}`}>
                  <thead>
                    <tr>
                      <th>Variant</th>
                      <th className="num">Runs</th>
                      <th className="num">Median [95% CI]</th>
                      <th className="num">Mean ± sd</th>
                      <th className="num">Change [CI]</th>
                      <th className="num">p</th>
                      <th>Verdict</th>
                    </tr>
                  </thead>
                  <tbody>
                    {result.variants.map((stats) => {
                      const candidate = result.comparisons.find((c) => c.candidate === stats.variant);
                      const ci = stats.medianCi;
                      return (
                        <tr key={stats.variant}>
                          <td>
                            {stats.variant} {stats.isBaseline ? <span className="badge good">baseline</span> : null}
                          </td>
                          <td className="num">{stats.n}</td>
                          <td className="num" title={ci ? `${(ci.confidence * 100).toFixed(1)}% interval from order statistics` : undefined}>
                            {formatValue(stats.median)} {ci ? <span className="muted small">[{formatValue(ci.low)}, {formatValue(ci.high)}]</span> : null}
                          </td>
                          <td className="num" title="sample standard deviation (n − 1)">
                            {formatValue(stats.mean)} {stats.sd !== null ? <span className="muted small">± {formatValue(stats.sd)}</span> : null}
                          </td>
                          <td className="num">
                            {candidate ? (
                              <>
                                {formatPercent(candidate.change.percent)}{" "}
                                {candidate.change.percentCi ? (
                                  <span className="muted small">
                                    [{formatPercent(candidate.change.percentCi.low)}, {formatPercent(candidate.change.percentCi.high)}]
                                  </span>
                                ) : null}
                              </>
                            ) : (
                              "—"
                            )}
                          </td>
                          <td className="num" title={candidate?.mannWhitney ? `Mann-Whitney U (${candidate.mannWhitney.method}${candidate.adjustment === "holm" ? ", Holm-adjusted" : ""}); Welch p = ${formatP(candidate.welch.p)}` : undefined}>
                            {candidate ? formatP(candidate.pAdjusted ?? candidate.mannWhitney?.p) : "—"}
                          </td>
                          <td>
                            {candidate ? (
                              <span className={`verdict verdict-${candidate.verdict}`} title={candidate.reason}>
                                {verdictLabel[candidate.verdict]}
                                {candidate.evidence === "weak" ? " (weak evidence)" : ""}
                              </span>
                            ) : null}
                            {candidate && candidate.verdict !== "better" && candidate.verdict !== "worse" ? <div className="muted small">{candidate.reason}</div> : null}
                          </td>
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              </div>
            )}
            {result?.notes.length ? <p className="muted small">{result.notes.join(" · ")}</p> : null}
          </div>
        );
      })}
    </section>
  );
}
