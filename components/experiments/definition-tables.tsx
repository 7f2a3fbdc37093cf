// The experiment's definition as tables: its variants (baseline marked) and metrics. Takes only
// what it shows, so the experiment page and a share page (which has no ids) both use it.
import { directionLabel } from "~/components/format";
import { workloadOf } from "~/server/schemas/workload";
import type { ExperimentDetail } from "~/server/experiments/experiments";

type Experiment = ExperimentDetail["experiment"];
type Definition = {
  variants: readonly (Pick<Experiment["variants"][number], "name" | "description" | "isBaseline" | "runCount"> & { config?: unknown })[];
  metrics: readonly Pick<Experiment["metrics"][number], "key" | "label" | "unit" | "direction" | "aggregation">[];
};

export function DefinitionTables({ experiment }: { experiment: Definition }) {
  // What agents run for each variant, when any has a workload (a share page passes no config).
  const workloads = experiment.variants.map((variant) => workloadOf(variant.config));
  const anyWorkload = workloads.some(Boolean);
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
                {anyWorkload ? <th>Workload</th> : null}
                <th className="num">Runs</th>
              </tr>
            </thead>
            <tbody>
              {experiment.variants.map((variant, index) => (
                <tr key={variant.name}>
                  <td>
                    {variant.name} {variant.isBaseline ? <span className="badge good">baseline</span> : null}
                  </td>
                  <td className="muted">{variant.description || "—"}</td>
                  {anyWorkload ? <td data-testid="variant-workload">{workloadCell(workloads[index] ?? null)}</td> : null}
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
                <tr key={metric.key}>
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

function workloadCell(workload: ReturnType<typeof workloadOf>) {
  if (!workload) return <span className="muted">—</span>;
  const settings = Object.keys(workload.settings).length ? JSON.stringify(workload.settings) : null;
  return (
    <>
      <span className="badge">{workload.workload}</span> {settings ? <code className="small workload-settings">{settings}</code> : null}
    </>
  );
}
