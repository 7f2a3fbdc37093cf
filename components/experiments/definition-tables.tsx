// The experiment's definition as tables: its variants (baseline marked) and metrics. Takes only
// what it shows, so the experiment page and a share page (which has no ids) both use it.
import { directionLabel } from "~/components/format";
import type { TProbe } from "~/server/schemas/probe";
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
      {workload.probes.length ? (
        <ul className="small variant-probes" aria-label="Probes">
          {workload.probes.map((probe) => (
            <li key={probe.name} data-testid="variant-probe">
              probe <code>{probe.name}</code> <span className="muted">{probeTarget(probe)}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}

/** What a probe samples, in a few words: "prometheus http://…/metrics (process, go) every 0.5 s". */
function probeTarget(probe: TProbe): string {
  const every = `every ${probe.intervalSeconds} s${probe.required ? ", required" : ""}`;
  if (probe.kind === "process") {
    const [by, value] = Object.entries(probe.match).find(([, given]) => given !== undefined) ?? ["", ""];
    return `process by ${by} ${String(value)} ${every}`;
  }
  const series = probe.series?.length ? ` + ${probe.series.length} custom series` : "";
  return `prometheus ${probe.url} (${probe.presets.join(", ")}${series}) ${every}`;
}
