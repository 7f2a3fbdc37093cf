// One metric's before/after table: each variant's median with its CI, mean ± sd, the runs' min
// and max, the percentiles merged from their histograms, then the change against the baseline
// with its CI, the Mann-Whitney p (Holm-adjusted) and the verdict, worded and coloured by the
// metric's direction. Every variant with runs has its row, also when nothing could be tested
// (one variant, or no baseline runs): then the change, p and verdict columns are left out and the
// reason is said below. Shared by the experiment page, the share page and the cross-experiment
// comparison (whose metric entries have the same shape). All figures come from the server and
// are rounded by server/display.ts.
// On phones the secondary columns and the verdict's reason give way (the chart below shows the
// medians, the verdict's tooltip the reason), so change and verdict stay in view; with nothing
// compared, the median stays.
import { directionLabel, formatMeanSd, formatMedianFigures, formatP, formatPercent, formatPercentile, perRunLabel, verdictLabel, type MedianFigures } from "~/server/display";
import type { TComparison } from "~/server/schemas/comparison";
import { VariantName } from "./variant-name";

type MetricEntry = TComparison["metrics"][number];
type VariantStats = NonNullable<MetricEntry["comparison"]>["variants"][number];

function MedianCell({ stats, figures, narrow }: { stats: VariantStats; figures: MedianFigures; narrow?: "hide" }) {
  const ci = stats.medianCi;
  return (
    <td className="num" data-narrow={narrow} title={ci ? `${(ci.confidence * 100).toFixed(1)}% interval from order statistics` : undefined}>
      <span className="figure">{figures.median}</span> {figures.low !== null ? <span className="figure muted small">[{figures.low}, {figures.high}]</span> : null}
    </td>
  );
}

function MeanSdCell({ stats }: { stats: VariantStats }) {
  const figures = formatMeanSd(stats.mean, stats.sd);
  return (
    <td className="num" data-narrow="hide" title="sample standard deviation (n − 1)">
      <span className="figure">{figures.mean}</span> {figures.sd !== null ? <span className="figure muted small">± {figures.sd}</span> : null}
    </td>
  );
}

export function MetricComparison({ metric }: { metric: MetricEntry }) {
  const result = metric.comparison;
  const tested = (result?.comparisons.length ?? 0) > 0;
  const merged = result?.variants.some((v) => v.percentiles !== null) ?? false;
  return (
    <div style={{ marginTop: "1rem" }}>
      <h3>
        <code>{metric.key}</code>{" "}
        <span className="muted small">
          {metric.unit} · {directionLabel[metric.direction]} · {perRunLabel(metric.aggregation)}
        </span>
      </h3>
      {!result ? null : (
        <div className="table-wrap">
          <table aria-label={`Comparison of ${metric.key}`}>
            <thead>
              <tr>
                <th>Variant</th>
                <th className="num" data-narrow="hide">Runs</th>
                <th className="num" data-narrow={tested ? "hide" : undefined}>Median [95% CI]</th>
                <th className="num" data-narrow="hide">Mean ± sd</th>
                <th className="num" data-narrow="hide">Min … max</th>
                {merged ? <th className="num" data-narrow="hide" title="percentiles of all runs' samples, merged from their histograms">p50 / p90 / p99</th> : null}
                {tested ? (
                  <>
                    <th className="num">Change [CI]</th>
                    <th className="num">p</th>
                    <th>Verdict</th>
                  </>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {result.variants.map((stats) => {
                const candidate = result.comparisons.find((c) => c.candidate === stats.variant);
                const figures = formatMedianFigures(stats);
                const p = stats.percentiles;
                return (
                  <tr key={stats.variant}>
                    <td className="variant-name">
                      <VariantName name={stats.variant} /> {stats.isBaseline ? <span className="badge good">baseline</span> : null}
                    </td>
                    <td className="num" data-narrow="hide">{stats.n}</td>
                    <MedianCell stats={stats} figures={figures} narrow={tested ? "hide" : undefined} />
                    <MeanSdCell stats={stats} />
                    <td className="num" data-narrow="hide" title="the lowest and highest run">
                      <span className="figure">{figures.range}</span>
                    </td>
                    {merged ? (
                      <td className="num" data-narrow="hide" title={p ? `merged from ${p.count.toLocaleString("en-US")} recorded values` : "no histograms"}>
                        {p ? <span className="figure">{`${formatPercentile(p.p50)} / ${formatPercentile(p.p90)} / ${formatPercentile(p.p99)}`}</span> : "—"}
                      </td>
                    ) : null}
                    {tested ? (
                      <>
                        <td className="num">
                          {candidate ? (
                            <>
                              <span className="figure">{formatPercent(candidate.change.percent)}</span>{" "}
                              {candidate.change.percentCi ? (
                                <span className="figure muted small">
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
                      </>
                    ) : null}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {metric.reason ? <p className="muted small">{result ? `Not compared: ${metric.reason}.` : metric.reason}</p> : null}
      {result?.notes.length ? <p className="muted small">{result.notes.join(" · ")}</p> : null}
    </div>
  );
}
