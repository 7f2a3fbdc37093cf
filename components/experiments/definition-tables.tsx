// The experiment's definition as tables: its variants (baseline marked) and metrics.
import { directionLabel } from "~/components/format";
import type { ExperimentDetail } from "~/server/services/experiments";

export function DefinitionTables({ experiment }: { experiment: ExperimentDetail["experiment"] }) {
  return (
    <>
        <section className="card" aria-labelledby="variants-heading">
          <h2 id="variants-heading">Variants</h2>
          <div className="table-wrap">
            <table aria-label="Variants">
              <thead>
                <tr>
                  <th>Name</th>
                  <th>Description</th>
                  <th className="num">Runs</th>
                </tr>
              </thead>
              <tbody>
                {experiment.variants.map((variant) => (
                  <tr key={variant.id}>
                    <td>
                      {variant.name} {variant.isBaseline ? <span className="badge good">baseline</span> : null}
                    </td>
                    <td className="muted">{variant.description || "—"}</td>
                    <td className="num">{variant.runCount}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>

        <section className="card" aria-labelledby="metrics-heading">
          <h2 id="metrics-heading">Metrics</h2>
          <div className="table-wrap">
            <table aria-label="Metrics">
              <thead>
                <tr>
                  <th>Key</th>
                  <th>Label</th>
                  <th>Unit</th>
                  <th>Better when</th>
                  <th>Per run</th>
                </tr>
              </thead>
              <tbody>
                {experiment.metrics.map((metric) => (
                  <tr key={metric.id}>
                    <td>
                      <code>{metric.key}</code>
                    </td>
                    <td>{metric.label || "—"}</td>
                    <td>{metric.unit}</td>
                    <td>{directionLabel[metric.direction]}</td>
                    <td>{metric.aggregation}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
    </>
  );
}
