import { directionLabel } from "~/components/format";
import { formatMeasure } from "~/server/display";
import type { ExperimentDetail } from "~/server/services/experiments";

type Experiment = ExperimentDetail["experiment"];

/** Per metric, each run's stored summary: the numbers the tool printed or the samples gave. */
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
            <div className="table-wrap">
              <table aria-label={`Runs of ${metric.key}`}>
                <thead>
                  <tr>
                    <th>Variant</th>
                    <th className="num">#</th>
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
                      </td>
                      <td className="num">{run.repetition}</td>
                      <td className="num">{result.n.toLocaleString("en-US")}</td>
                      <td className="num">{formatMeasure(result.mean)}</td>
                      <td className="num">{formatMeasure(result.sd)}</td>
                      <td className="num">{formatMeasure(result.min)}</td>
                      <td className="num">{formatMeasure(result.p50)}</td>
                      <td className="num">{formatMeasure(result.p90)}</td>
                      <td className="num">{formatMeasure(result.p99)}</td>
                      <td className="num">{formatMeasure(result.max)}</td>
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
