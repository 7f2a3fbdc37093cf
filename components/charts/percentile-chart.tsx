"use client";
// Where each variant's tail goes: p50 … p99.9, one line per variant. The server says where each
// variant's figures come from (its runs' HdrHistograms merged, or the median of the percentiles
// each run's tool printed), and the caption repeats it: the two are not the same estimate. A level
// a variant lacks is a gap in its line, never a zero; one no variant has is left off the axis.
// A log Y axis keeps p50 readable next to a far p99.9.
import { useState } from "react";
import { CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatMeasure, formatPercentile } from "~/server/display/display";
import type { TMetricCharts, TPercentileFigure } from "~/server/schemas/charts";
import { ChartFrame } from "./chart-frame";
import { VariantLegend } from "./legend";
import { logAxis } from "./log-ticks";
import { linearAxis } from "./nice-axis";
import { axisLine, axisTick, colorOf, gridStroke, type ChartVariant } from "./palette";
import { Segmented } from "./segmented";
import { TooltipBox } from "./tooltip";

const LEVELS = [
  { key: "p50", label: "p50" },
  { key: "p90", label: "p90" },
  { key: "p95", label: "p95" },
  { key: "p99", label: "p99" },
  { key: "p999", label: "p99.9" },
] as const satisfies readonly { key: keyof TPercentileFigure; label: string }[];

type Level = (typeof LEVELS)[number];

/** Rows per percentile level with one column per variant (v0, v1…: names may contain dots); null where a variant has no figure. */
function rowsOf(figures: readonly TPercentileFigure[], levels: readonly Level[]) {
  return levels.map((level) => ({ level: level.label, ...Object.fromEntries(figures.map((f, i) => [`v${i}`, f[level.key]])) }));
}

const plural = (n: number, one: string) => `${n.toLocaleString("en-US")} ${one}${n === 1 ? "" : "s"}`;

/** Where the figures come from, per source, in words. */
function sourceOf(figures: readonly TPercentileFigure[]): string {
  const merged = figures.filter((f) => f.source === "histograms");
  const printed = figures.filter((f) => f.source === "run summaries");
  const mergedText = `merged from the runs' HdrHistograms (${merged.map((f) => `${f.variant}: ${plural(f.count ?? 0, "sample")}`).join(", ")})`;
  const printedText = `the median of the runs' own p50 … p99.9 as the tool printed them, no samples stored (${printed.map((f) => `${f.variant}: ${plural(f.runs, "run")}`).join(", ")})`;
  if (printed.length === 0) return `Percentiles of every sample of each variant, ${mergedText}`;
  if (merged.length === 0) return `Each point is ${printedText}; a level no run printed is left out, not drawn as zero`;
  return `Percentiles from two sources that are not the same estimate: ${mergedText}; ${printedText}`;
}

export function PercentileChart({ metric, variants, fileName }: { metric: TMetricCharts; variants: readonly ChartVariant[]; fileName: string }) {
  const figures = metric.percentiles;
  const levels = LEVELS.filter((level) => figures.some((f) => f[level.key] !== null));
  const values = figures.flatMap((f) => levels.flatMap((level) => f[level.key] ?? []));
  const min = Math.min(...values);
  const max = Math.max(...values);
  const log = logAxis(min, max);
  // Open on the log axis when the tail is long enough that p50 would be squashed.
  const [scale, setScale] = useState<"linear" | "log">(log && max / min > 10 ? "log" : "linear");
  const useLog = scale === "log" && log !== null;
  const linear = linearAxis(metric.unit, min, max, { fromZero: true });

  return (
    <ChartFrame
      chartId={`${metric.key}/percentiles`}
      label={`Percentiles of ${metric.key} per variant`}
      caption={`${sourceOf(figures)}; ${useLog ? "log" : "linear"} scale.`}
      fileName={fileName}
      height={320}
      empty={figures.length === 0 ? "No samples, histograms or stored percentiles for this metric" : null}
      options={
        log ? (
          <Segmented
            label="Y axis"
            value={scale}
            onChange={setScale}
            options={[
              { value: "linear", label: "Linear" },
              { value: "log", label: "Log Y" },
            ]}
          />
        ) : null
      }
    >
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart data={rowsOf(figures, levels)} margin={{ top: 12, right: 16, bottom: 4, left: 4 }}>
          <CartesianGrid vertical={false} stroke={gridStroke} />
          <XAxis dataKey="level" tick={axisTick} axisLine={axisLine} tickLine={false} padding={{ left: 16, right: 16 }} />
          {useLog ? (
            <YAxis
              scale="log"
              domain={log.domain}
              ticks={log.ticks}
              allowDataOverflow
              tickFormatter={(v: number) => formatMeasure(v, metric.unit)}
              tick={axisTick}
              axisLine={axisLine}
              tickLine={false}
              width="auto"
            />
          ) : (
            <YAxis
              domain={linear.domain}
              ticks={linear.ticks}
              tickFormatter={linear.format}
              tick={axisTick}
              axisLine={axisLine}
              tickLine={false}
              width="auto"
            />
          )}
          <Tooltip
            isAnimationActive={false}
            content={({ active, payload, label }) =>
              active && payload?.length ? (
                <TooltipBox
                  title={String(label)}
                  lines={payload
                    .filter((item) => typeof item.value === "number")
                    .map((item) => {
                      const figure = figures[Number(String(item.dataKey).slice(1))];
                      // Merged from histograms: the table's 3 significant digits; a run summary's median: a lone measurement's 4.
                      const text =
                        figure?.source === "histograms" ? formatPercentile(Number(item.value), metric.unit) : formatMeasure(Number(item.value), metric.unit);
                      return `${figure?.variant}: ${text}`;
                    })}
                />
              ) : null
            }
          />
          <Legend verticalAlign="bottom" content={<VariantLegend items={figures.map((f) => ({ name: f.variant, color: colorOf(variants, f.variant) }))} />} />
          {figures.map((f, i) => (
            <Line
              key={f.variant}
              dataKey={`v${i}`}
              name={f.variant}
              stroke={colorOf(variants, f.variant)}
              strokeWidth={2}
              dot={{ r: 3.5, fill: colorOf(variants, f.variant), strokeWidth: 0 }}
              // A missing level breaks the line: bridging it would draw a value nobody measured.
              connectNulls={false}
              isAnimationActive={false}
            />
          ))}
        </ComposedChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
}
