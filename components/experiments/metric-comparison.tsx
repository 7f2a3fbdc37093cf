// One metric's before/after table: each variant's median with its CI, mean ± sd, the runs' min
// and max, the percentiles merged from their histograms, then the change against the baseline
// with its CI, the Mann-Whitney p (Holm-adjusted) and the verdict, worded and coloured by the
// metric's direction. Every variant with runs has its row, also when nothing could be tested
// (one variant, or no baseline runs): then the change, p and verdict columns are left out and the
// reason is said below. Shared by the experiment page, the share page and the cross-experiment
// comparison (whose metric entries have the same shape). All figures come from the server and
// are written by server/display/display.ts, with their units, as the charts and the report write them.
// On a phone every row becomes a card of label–figure lines (app/globals.css, table.comparison-cards):
// nothing is hidden, each cell says which figure it holds (data-label). The explicit roles keep
// the table a table for assistive technology once its display is no longer a table's.
import type { ReactNode } from "react";
import {
  changeAndCi,
  directionLabel,
  formatMeanSd,
  formatMedianFigures,
  formatP,
  formatPercentiles,
  noiseFloorText,
  perRunLabel,
  verdictP,
  verdictText,
  withUnit,
} from "~/server/display/display";
import type { TCandidateNoiseFloor, TComparison } from "~/server/schemas/comparison";
import { VariantName } from "./variant-name";

type MetricEntry = TComparison["metrics"][number];
type Result = NonNullable<MetricEntry["comparison"]>;
type VariantStats = Result["variants"][number];
type Candidate = Result["comparisons"][number];

/** A cell that names its figure on a phone, where the column headings are not shown. */
function Cell({ label, className, title, empty, children }: { label: string; className?: string; title?: string; empty?: boolean; children: ReactNode }) {
  return (
    <td role="cell" className={className} data-label={label} data-empty={empty ? "" : undefined} title={title}>
      <div className="cell-value">{children}</div>
    </td>
  );
}

function MedianCell({ stats, unit, label }: { stats: VariantStats; unit: string; label: string }) {
  const ci = stats.medianCi;
  const figures = formatMedianFigures(stats, unit);
  return (
    <Cell label={label} className="num" title={ci ? `${(ci.confidence * 100).toFixed(1)}% interval from order statistics` : undefined}>
      <span className="figure">{withUnit(figures.median, figures)}</span>{" "}
      {figures.low !== null ? (
        <span className="figure muted small">
          [{figures.low}, {figures.high}]
        </span>
      ) : null}
    </Cell>
  );
}

function MeanSdCell({ stats, unit, label }: { stats: VariantStats; unit: string; label: string }) {
  const figures = formatMeanSd(stats.mean, stats.sd, unit);
  return (
    <Cell label={label} className="num" title="sample standard deviation (n − 1)">
      {figures.sd === null ? (
        <span className="figure">{withUnit(figures.mean, figures)}</span>
      ) : (
        <>
          <span className="figure">{figures.mean}</span> <span className="figure muted small">± {withUnit(figures.sd, figures)}</span>
        </>
      )}
    </Cell>
  );
}

function ChangeCells({ candidate, floor }: { candidate: Candidate | undefined; floor: TCandidateNoiseFloor | undefined }) {
  if (!candidate) {
    // The baseline's own row: nothing to compare it with (its card on a phone leaves these out).
    return (
      <>
        <Cell label="Change [CI]" className="num" empty>
          —
        </Cell>
        <Cell label="p" className="num" empty>
          —
        </Cell>
        <Cell label="Verdict" empty>
          —
        </Cell>
      </>
    );
  }
  const { change, ci } = changeAndCi(candidate.change.percent, candidate.change.percentCi);
  const p = verdictP(candidate);
  const decided = candidate.verdict === "better" || candidate.verdict === "worse";
  return (
    <>
      <Cell label="Change [CI]" className="num">
        <span className="figure">{change}</span> {ci ? <span className="figure muted small">{ci}</span> : null}
      </Cell>
      <Cell
        label="p"
        className="num"
        title={
          p !== null && candidate.mannWhitney
            ? `Mann-Whitney U (${candidate.mannWhitney.method}${candidate.adjustment === "holm" ? ", Holm-adjusted" : ""}); Welch p = ${formatP(candidate.welch.p)}`
            : "no test decides with so few runs"
        }
      >
        <span className="figure">{formatP(p)}</span>
      </Cell>
      <Cell label="Verdict">
        <span className={`verdict verdict-${floor?.belowFloor ? "below-floor" : candidate.verdict}`} title={candidate.reason}>
          {verdictText(candidate, floor)}
        </span>
        {decided ? null : <div className="muted small">{candidate.reason}</div>}
        {floor ? (
          <div className="muted small" data-testid="noise-floor">
            {noiseFloorText(floor)}
          </div>
        ) : null}
      </Cell>
    </>
  );
}

/** `level`: 4 when the metric sits under a group heading (Client, Server). */
export function MetricComparison({ metric, level = 3 }: { metric: MetricEntry; level?: 3 | 4 }) {
  const Heading = level === 4 ? "h4" : "h3";
  const result = metric.comparison;
  const tested = (result?.comparisons.length ?? 0) > 0;
  const merged = result?.variants.some((v) => v.percentiles !== null) ?? false;
  return (
    <div style={{ marginTop: "1rem" }}>
      <Heading className="metric-heading">
        <code>{metric.key}</code>{" "}
        <span className="muted small">
          {metric.unit} · {directionLabel[metric.direction]} · {perRunLabel(metric.aggregation)}
        </span>
      </Heading>
      {!result ? null : (
        <div className="table-wrap">
          <table role="table" className="comparison-cards" aria-label={`Comparison of ${metric.key}`}>
            <thead role="rowgroup">
              <tr role="row">
                <th role="columnheader">Variant</th>
                <th role="columnheader" className="num">
                  Runs
                </th>
                <th role="columnheader" className="num">
                  Median [95% CI]
                </th>
                <th role="columnheader" className="num">
                  Mean ± sd
                </th>
                <th role="columnheader" className="num">
                  Min … max
                </th>
                {merged ? (
                  <th role="columnheader" className="num" title="percentiles of all runs' samples, merged from their histograms">
                    p50 / p90 / p99
                  </th>
                ) : null}
                {tested ? (
                  <>
                    <th role="columnheader" className="num">
                      Change [CI]
                    </th>
                    <th role="columnheader" className="num">
                      p
                    </th>
                    <th role="columnheader">Verdict</th>
                  </>
                ) : null}
              </tr>
            </thead>
            <tbody role="rowgroup">
              {result.variants.map((stats) => {
                const candidate = result.comparisons.find((c) => c.candidate === stats.variant);
                const figures = formatMedianFigures(stats, metric.unit);
                const p = stats.percentiles;
                return (
                  <tr role="row" key={stats.variant} data-variant={stats.variant}>
                    <td role="rowheader" className="variant-name">
                      <VariantName name={stats.variant} /> {stats.isBaseline ? <span className="badge good">baseline</span> : null}
                    </td>
                    <Cell label="Runs" className="num">
                      {stats.n}
                    </Cell>
                    <MedianCell stats={stats} unit={metric.unit} label="Median [95% CI]" />
                    <MeanSdCell stats={stats} unit={metric.unit} label="Mean ± sd" />
                    <Cell label="Min … max" className="num" title="the lowest and highest run">
                      <span className="figure">{withUnit(figures.range, figures)}</span>
                    </Cell>
                    {merged ? (
                      <Cell
                        label="p50 / p90 / p99"
                        className="num"
                        title={p ? `merged from ${p.count.toLocaleString("en-US")} recorded values` : "no histograms"}
                      >
                        {p ? <span className="figure">{formatPercentiles([p.p50, p.p90, p.p99], metric.unit)}</span> : "—"}
                      </Cell>
                    ) : null}
                    {tested ? <ChangeCells candidate={candidate} floor={metric.noiseFloor?.find((f) => f.candidate === stats.variant)} /> : null}
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
