// The experiment's noise floor: per metric and agent of its latest A/A batch, the run-to-run
// spread and the smallest change a comparison of the experiment's run count can see there, with
// "Measure noise" for members. The figures come from the server (job.noiseFloor); the page is
// refreshed when a batch finishes, so a new floor shows when its batch ends.
import { formatDateTime } from "~/components/format";
import { formatMeasure, mdeText } from "~/server/display/display";
import type { experimentNoiseFloor } from "~/server/comparison/noise-floor";
import { MeasureNoiseButton, type NoiseTarget } from "./measure-noise-form";

type Floor = Awaited<ReturnType<typeof experimentNoiseFloor>>;

export function NoiseFloorPanel({ floor, canWrite, target }: { floor: Floor; canWrite: boolean; target: NoiseTarget }) {
  return (
    <section className="card" aria-labelledby="noise-heading" data-testid="noise-floor-panel">
      <div className="batches-head">
        <h2 id="noise-heading">Noise floor</h2>
        {canWrite ? <MeasureNoiseButton label={floor ? "Measure again" : "Measure noise"} target={target} /> : null}
      </div>
      {floor === null ? (
        <p className="muted small" style={{ margin: 0 }}>
          Not measured yet. Measuring noise runs the baseline against itself on the agents; afterwards each verdict says the smallest change its runs could have
          seen there, and Run suggests how many runs a change needs.
        </p>
      ) : (
        <>
          <p className="muted small" style={{ margin: 0 }}>
            From the A/A batch of {formatDateTime(floor.measuredAt)}: the smallest change of the median the U test finds with 80% power at the experiment&apos;s
            α, with {floor.runs} runs a side as the experiment does, and the runs a side a change of ±{floor.minChangePercent}% needs.
          </p>
          <div className="table-wrap">
            <table aria-label="Noise floor">
              <thead>
                <tr>
                  <th>Metric</th>
                  <th>Agent</th>
                  <th className="num" data-narrow="hide">
                    A/A runs
                  </th>
                  <th className="num" data-narrow="hide">
                    Median
                  </th>
                  <th className="num" data-narrow="hide">
                    Run-to-run sd
                  </th>
                  <th className="num">Smallest change seen</th>
                  <th className="num">Runs for ±{floor.minChangePercent}%</th>
                </tr>
              </thead>
              <tbody>
                {floor.entries.map((entry) => (
                  <tr key={`${entry.metric}\u0000${entry.agent}`} data-testid="noise-floor-row">
                    <td>
                      <code>{entry.metric}</code>
                    </td>
                    <td>{entry.agent}</td>
                    <td className="num" data-narrow="hide">
                      {entry.noiseRuns}
                    </td>
                    <td className="num" data-narrow="hide">
                      {formatMeasure(entry.median, entry.unit)}
                    </td>
                    <td className="num" data-narrow="hide">
                      {entry.sd === null ? "—" : formatMeasure(entry.sd, entry.unit)}
                      {entry.spreadPercent === null ? null : <span className="muted small"> ({mdeText(entry.spreadPercent)})</span>}
                    </td>
                    <td className="num">
                      {entry.mdePercent === null ? "none" : mdeText(entry.mdePercent)} <span className="muted small">with {entry.runs}</span>
                    </td>
                    <td className="num">{entry.runsForMinChange ?? "—"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}
