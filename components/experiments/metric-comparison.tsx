// One metric's before/after table: each variant's median with its CI, mean ± sd, the change
// against the baseline with its CI, the Mann-Whitney p (Holm-adjusted) and the verdict, worded
// and coloured by the metric's direction. Shared by the experiment page and the cross-experiment
// comparison (whose metric entries have the same shape). All figures come from the server.
// On phones the runs, median and mean ± sd columns and the verdict's reason give way (the chart
// below shows the medians, the verdict's tooltip the reason), so change and verdict stay in view.
import { formatValue } from "~/components/format";
import { directionLabel, formatP, formatPercent, verdictLabel } from "~/server/display";
import type { TComparison } from "~/server/schemas/comparison";

type MetricEntry = TComparison["metrics"][number];


export function MetricComparison({ metric }: { metric: MetricEntry }) {
  const result = metric.comparison;
  return (
    <div style={{ marginTop: "1rem" }}>
      <h3>
        <code>{metric.key}</code>{" "}
        <span className="muted small">
          {metric.unit} · {directionLabel[metric.direction]} · each run&apos;s {metric.aggregation}
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
                <th className="num" data-narrow="hide">Runs</th>
                <th className="num" data-narrow="hide">Median [95% CI]</th>
                <th className="num" data-narrow="hide">Mean ± sd</th>
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
                    <td className="num" data-narrow="hide">{stats.n}</td>
                    <td className="num" data-narrow="hide" title={ci ? `${(ci.confidence * 100).toFixed(1)}% interval from order statistics` : undefined}>
                      {formatValue(stats.median)} {ci ? <span className="muted small">[{formatValue(ci.low)}, {formatValue(ci.high)}]</span> : null}
                    </td>
                    <td className="num" data-narrow="hide" title="sample standard deviation (n − 1)">
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
                      {candidate && candidate.verdict !== "better" && candidate.verdict !== "worse" ? <div className="muted small" data-narrow="hide">{candidate.reason}</div> : null}
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
}
