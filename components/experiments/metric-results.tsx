import { directionLabel, formatValue } from "~/components/format";
import type { ExperimentDetail } from "~/server/services/experiments";

type Experiment = ExperimentDetail["experiment"];

const FIGURE_NAMES: Record<Experiment["metrics"][number]["summaryFigure"], string> = {
  mean: "mean", p50: "median", p90: "p90", p95: "p95", p99: "p99", min: "min", max: "max", sum: "sum",
};

/**
 * Per metric, each run's value — what it contributes to comparisons — next to its stored summary:
 * the numbers the tool printed or the samples, histogram or per-second series gave.
 */
export function MetricResults({ experiment }: { experiment: Experiment }) {
  const variantNames = new Map(experiment.variants.map((variant) => [variant.id, variant.name]));
  const position = new Map(experiment.variants.map((variant, index) => [variant.id, index]));
  const runs = [...experiment.runs].sort((a, b) => (position.get(a.variantId) ?? 0) - (position.get(b.variantId) ?? 0) || a.repetition - b.repetition);
  return (
    <>
      {experiment.metrics.map((metric) => {
        const rows = runs.flatMap((run) => run.results.filter((r) => r.metricId === metric.id).map((result) => ({ run, result })));
        if (rows.length === 0) return null;
        return (
          <section key={metric.id} className="card" aria-label={`Results: ${metric.key}`}>
            <h2>
              <code>{metric.key}</code> <span className="muted small">{metric.label ? `${metric.label} · ` : ""}{metric.unit} · {directionLabel[metric.direction]} · per run: {metric.aggregation}</span>
            </h2>
            <p className="muted small">
              <strong>Run value</strong>: what each run contributes to comparisons — the value the run&apos;s producer sent (marked <em>sent</em>, e.g. the whole
              run&apos;s rate), else its summary&apos;s {FIGURE_NAMES[metric.summaryFigure]}. The summary columns describe the run&apos;s own values: its operations, or its seconds when
              it sent a per-second series (then n counts seconds).
            </p>
            <div className="table-wrap">
              <table aria-label={`Runs of ${metric.key}`}>
                <thead>
                  <tr>
                    <th>Variant</th>
                    <th className="num">#</th>
                    <th className="num">Run value</th>
                    <th className="num">n</th>
                    <th className="num">mean</th>
                    <th className="num">sd</th>
                    <th className="num">min</th>
                    <th className="num">p50</th>
                    <th className="num">p90</th>
                    <th className="num">p99</th>
                    <th className="num">max</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map(({ run, result }) => (
                    <tr key={`${run.id}-${metric.id}`}>
                      <td>
                        {variantNames.get(run.variantId)}
                        {/* A result stored before ingest refused non-finite figures: shown, not compared. */}
                        {result.unusable ? (
                          <div className="small">
                            <span className="badge warn">left out</span> <span className="muted">{result.unusable}</span>
                          </div>
                        ) : null}
                        {/* Stored before summaries were checked, and contradicting itself: its figures are not shown as sound. */}
                        {result.summaryNote ? (
                          <div className="small">
                            <span className="badge warn">summary contradicts itself</span> <span className="muted">{result.summaryNote}</span>
                          </div>
                        ) : null}
                      </td>
                      <td className="num">{run.repetition}</td>
                      <td className="num">
                        {formatValue(result.runValue)}
                        {result.explicit ? <span className="muted small"> sent</span> : null}
                      </td>
                      <SummaryCells result={result} />
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </section>
        );
      })}
    </>
  );
}

type ShownResult = Experiment["runs"][number]["results"][number];

/** The stored summary's figures; those of a summary that contradicts itself are struck through. */
function SummaryCells({ result }: { result: ShownResult }) {
  const figures = [result.n.toLocaleString("en-US"), formatValue(result.mean), formatValue(result.sd), formatValue(result.min), formatValue(result.p50), formatValue(result.p90), formatValue(result.p99), formatValue(result.max)];
  return (
    <>
      {figures.map((text, i) => (
        <td key={i} className={result.summaryNote ? "num muted" : "num"}>
          {result.summaryNote ? <s title="this summary contradicts itself">{text}</s> : text}
        </td>
      ))}
    </>
  );
}
