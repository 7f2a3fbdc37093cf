"use client";
// A metric over the course of each run (TPS per second, CPU %, latency over time), every run from
// its own start, one line per run in its variant's colour: warm-up ramps, drift, stalls and
// periodic spikes show here and nowhere else. Long series arrive thinned (min and max per slice).
import { CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatMeasure } from "~/server/display/display";
import type { TMetricCharts } from "~/server/schemas/charts";
import { ChartFrame } from "./chart-frame";
import { elapsedAxis, linearAxis } from "./nice-axis";
import { VariantLegend } from "./legend";
import { colorOf, gridStroke, type ChartVariant } from "./palette";
import { elapsedXAxisProps, valueYAxisProps } from "./time-axes";
import { TooltipBox } from "./tooltip";

export function TimeSeriesChart({ metric, variants, fileName }: { metric: TMetricCharts; variants: readonly ChartVariant[]; fileName: string }) {
  const series = metric.timeSeries;
  const span = Math.max(0, ...series.flatMap((s) => s.points.map((p) => p.tMs)));
  const values = series.flatMap((s) => s.points.map((p) => p.value));
  const min = Math.min(...values);
  const max = Math.max(...values);
  // From zero when the data nearly reaches it anyway; otherwise tight, so drift stays visible.
  const y = linearAxis(metric.unit, min, max, { fromZero: min >= 0 && min <= max / 2 });
  const x = elapsedAxis(span);
  const shown = variants.filter((v) => series.some((s) => s.variant === v.name));
  const thinned = series.filter((s) => s.storedPoints > s.points.length).length;

  return (
    <ChartFrame
      chartId={`${metric.key}/time`}
      label={`${metric.key} over time, per run`}
      caption={`${metric.label || metric.key} over each run, from the run's start; one line per run (${series.length}), coloured by variant.${thinned ? ` ${thinned} long series thinned to their lowest and highest point per slice.` : ""}`}
      fileName={fileName}
      height={320}
      empty={series.length === 0 ? "No time series stored for this metric" : null}
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
                  lines={payload
                    .slice(0, 12)
                    .map((item) => `${item.name}: ${formatMeasure(Number(item.value), metric.unit)}`)
                    .concat(payload.length > 12 ? [`… ${payload.length - 12} more runs`] : [])}
                />
              ) : null
            }
          />
          <Legend verticalAlign="bottom" content={<VariantLegend items={shown.map((v) => ({ name: v.name, color: colorOf(variants, v.name) }))} />} />
          {series.map((s, index) => (
            <Line
              key={s.runId ?? index}
              data={s.points}
              dataKey="value"
              name={`${s.variant} #${s.repetition}`}
              type="linear"
              stroke={colorOf(variants, s.variant)}
              strokeOpacity={0.85}
              strokeWidth={1.5}
              dot={s.points.length === 1 ? { r: 3 } : false}
              activeDot={false}
              isAnimationActive={false}
            />
          ))}
        </ComposedChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
}
