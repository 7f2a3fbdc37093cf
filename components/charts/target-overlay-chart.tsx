"use client";
// A figure several probes report, every probe of every variant on one time axis (two servers
// behind nginx beside the one before it): colour tells the variant, the dash the probe. Each line
// is, per second, the mean of the variant's runs, as the server computed it.
import { CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatMeasure } from "~/server/display/display";
import type { TTargetOverlay } from "~/server/schemas/charts";
import { ChartFrame } from "./chart-frame";
import { VariantLegend } from "./legend";
import { elapsedAxis, linearAxis } from "./nice-axis";
import { colorOf, gridStroke, type ChartVariant } from "./palette";
import { elapsedXAxisProps, valueYAxisProps } from "./time-axes";
import { TooltipBox } from "./tooltip";

/** The first probe solid, the others dashed apart. */
const DASHES = [undefined, "7 4", "2 3", "10 3 2 3", "4 4"];
const dashOf = (overlay: TTargetOverlay, probe: string) => DASHES[overlay.probes.indexOf(probe) % DASHES.length];

export function TargetOverlayChart({ overlay, variants, fileName }: { overlay: TTargetOverlay; variants: readonly ChartVariant[]; fileName: string }) {
  const values = overlay.lines.flatMap((line) => line.points.map((point) => point.value));
  const min = Math.min(...values);
  const max = Math.max(...values);
  const y = linearAxis(overlay.unit, min, max, { fromZero: min >= 0 && min <= max / 2 });
  const x = elapsedAxis(Math.max(0, ...overlay.lines.flatMap((line) => line.points.map((point) => point.tMs))));
  const name = (line: TTargetOverlay["lines"][number]) => `${line.variant} · ${line.probe}`;
  const headingId = `targets-${overlay.suffix.replace(/[^A-Za-z0-9_-]+/g, "_")}`;

  return (
    <section className="metric-charts target-charts" aria-labelledby={headingId} data-targets={overlay.suffix}>
      <div className="metric-charts-head">
        <h3 id={headingId}>
          <code>{overlay.suffix}</code>{" "}
          <span className="muted small">
            across {overlay.probes.join(", ")} · {overlay.unit}
          </span>
        </h3>
      </div>
      <ChartFrame
        chartId={`targets/${overlay.suffix}`}
        label={`${overlay.suffix} of ${overlay.probes.join(", ")} over time`}
        caption={`${overlay.suffix} of each probe over the run, every variant on one axis: colour is the variant, the dash the probe (${overlay.probes
          .map((probe, at) => `${probe} ${at === 0 ? "solid" : "dashed"}`)
          .join(", ")}). Each line is the mean, second by second, of the variant's runs.`}
        fileName={fileName}
        height={320}
        empty={overlay.lines.length === 0 ? "No time series stored for these probes" : null}
      >
        <ResponsiveContainer width="100%" height="100%">
          <ComposedChart margin={{ top: 12, right: 20, bottom: 4, left: 4 }}>
            <CartesianGrid stroke={gridStroke} />
            <XAxis {...elapsedXAxisProps(x)} />
            <YAxis {...valueYAxisProps(y)} />
            <Tooltip
              isAnimationActive={false}
              content={({ active, payload, label }) =>
                active && payload?.length ? (
                  <TooltipBox
                    title={x.format(Number(label))}
                    lines={payload.map((item) => `${item.name}: ${formatMeasure(Number(item.value), overlay.unit)}`)}
                  />
                ) : null
              }
            />
            <Legend
              verticalAlign="bottom"
              content={
                <VariantLegend
                  items={overlay.lines.map((line) => ({ name: name(line), color: colorOf(variants, line.variant), dash: dashOf(overlay, line.probe) }))}
                />
              }
            />
            {overlay.lines.map((line) => (
              <Line
                key={name(line)}
                data={line.points}
                dataKey="value"
                name={name(line)}
                type="linear"
                stroke={colorOf(variants, line.variant)}
                strokeDasharray={dashOf(overlay, line.probe)}
                strokeWidth={2}
                dot={line.points.length === 1 ? { r: 3 } : false}
                activeDot={false}
                isAnimationActive={false}
              />
            ))}
          </ComposedChart>
        </ResponsiveContainer>
      </ChartFrame>
    </section>
  );
}
