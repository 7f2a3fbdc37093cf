"use client";
// One bar per variant with whiskers: the median with its 95% CI (what the verdict rests on) or
// the mean ± sample sd (what write-ups usually print), the user's choice. Labels above the
// whiskers give the value in its unit, worded as the table words it (bar-figures.ts); the
// baseline's bar is outlined and named on the axis.
import { useState } from "react";
import {
  Bar,
  CartesianGrid,
  Cell,
  ComposedChart,
  ErrorBar,
  LabelList,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
  useXAxisScale,
  useYAxisScale,
} from "recharts";
import { perRunLabel } from "~/components/format";
import type { TMetricCharts } from "~/server/schemas/charts";
import { barLabel, barTooltipLines, type Whiskers } from "./bar-figures";
import { ChartFrame } from "./chart-frame";
import { linearAxis } from "./nice-axis";
import { axisLine, axisTick, colorOf, gridStroke, type ChartVariant } from "./palette";
import { Segmented } from "./segmented";
import { TooltipBox } from "./tooltip";
import { useWidth } from "./use-width";
import { VariantTick } from "./variant-tick";

interface Row {
  variant: string;
  isBaseline: boolean;
  value: number;
  /** Distances below and above the value, as ErrorBar wants them. */
  error: [number, number];
  low: number;
  high: number;
  n: number;
  median: number;
  ciLow: number | null;
  ciHigh: number | null;
  ciConfidence: number | null;
  mean: number;
  sd: number | null;
  /** What the label beyond the bar says. */
  label: string;
}

function rowsOf(bars: TMetricCharts["bars"], whiskers: Whiskers, unit: string): Row[] {
  return bars.map((bar) => {
    const value = whiskers === "ci" ? bar.median : bar.mean;
    const low = whiskers === "ci" ? (bar.ciLow ?? value) : value - (bar.sd ?? 0);
    const high = whiskers === "ci" ? (bar.ciHigh ?? value) : value + (bar.sd ?? 0);
    return { ...bar, value, low, high, error: [value - low, high - value], label: barLabel(bar, whiskers, unit) };
  });
}

/**
 * The value printed beyond the whisker (or the bar, whichever reaches further), never on top of
 * it: above in columns, to the right in rows.
 */
function ValueLabel({
  x,
  y,
  width,
  height,
  index,
  rows,
  horizontal,
}: {
  x?: number | string;
  y?: number | string;
  width?: number | string;
  height?: number | string;
  index?: number;
  rows: readonly Row[];
  horizontal: boolean;
}) {
  const yScale = useYAxisScale();
  const xScale = useXAxisScale();
  const row = rows[index ?? -1];
  if (!row || x === undefined || y === undefined || width === undefined || height === undefined) return null;
  const reach = Math.max(row.high, row.value);
  const text = row.label;
  if (horizontal) {
    const end = xScale?.(reach);
    const right = Math.max(Number(x) + Number(width), typeof end === "number" ? end : 0);
    return (
      <text
        x={right + 6}
        y={Number(y) + Number(height) / 2}
        dominantBaseline="central"
        fontSize={12}
        fontWeight={600}
        fill="var(--text)"
        data-bar-label={row.variant}
      >
        {text}
      </text>
    );
  }
  const end = yScale?.(reach);
  const top = Math.min(Number(y), typeof end === "number" ? end : Number(y));
  return (
    <text x={Number(x) + Number(width) / 2} y={top - 6} textAnchor="middle" fontSize={12} fontWeight={600} fill="var(--text)" data-bar-label={row.variant}>
      {text}
    </text>
  );
}

/** Below this many pixels per variant, columns cannot carry their labels: draw rows instead. */
const MIN_COLUMN_PX = 84;
const ROW_PX = 42;
/** About the width of one character of a 12 px bold label. */
const LABEL_CHAR_PX = 7.2;

export function VariantBarChart({ metric, variants, fileName }: { metric: TMetricCharts; variants: readonly ChartVariant[]; fileName: string }) {
  const [whiskers, setWhiskers] = useState<Whiskers>("ci");
  const [box, width] = useWidth<HTMLDivElement>();
  const rows = rowsOf(metric.bars, whiskers, metric.unit);
  const top = Math.max(0, ...rows.map((r) => Math.max(r.high, r.value)));
  const bottom = Math.min(0, ...rows.map((r) => Math.min(r.low, r.value)));
  const axis = linearAxis(metric.unit, bottom, top, { fromZero: true });
  // The longest label ("12,345 req/s"): a column must be as wide, a row leaves room for it beyond the whisker.
  const labelPx = Math.ceil(LABEL_CHAR_PX * Math.max(0, ...rows.map((r) => r.label.length)));
  const horizontal = width > 0 && width / Math.max(1, rows.length) < Math.max(MIN_COLUMN_PX, labelPx + 8);
  const labelRoom = Math.max(64, labelPx + 12);
  const fewRuns = metric.bars.some((b) => b.ciConfidence !== null && b.ciConfidence < 0.95);
  const caption =
    whiskers === "ci"
      ? `Median of each variant's runs (${perRunLabel(metric.aggregation)}); whiskers: distribution-free 95% confidence interval of the median${fewRuns ? " — with few runs it is [min, max], at the confidence the tooltip shows" : ""}.`
      : `Mean of each variant's runs (${perRunLabel(metric.aggregation)}); whiskers: ± one sample standard deviation across runs.`;
  const valueAxis = { type: "number", domain: axis.domain, ticks: axis.ticks, tickFormatter: axis.format, tick: axisTick, axisLine, tickLine: false } as const;
  const tick = <VariantTick rows={rows} horizontal={horizontal} />;

  return (
    <div ref={box}>
      <ChartFrame
        chartId={`${metric.key}/bars`}
        label={`Bar chart of ${metric.key} per variant`}
        caption={caption}
        fileName={fileName}
        height={horizontal ? rows.length * ROW_PX + 48 : 320}
        empty={rows.length === 0 ? "No runs with this metric yet" : null}
        options={
          <Segmented
            label="Whiskers"
            value={whiskers}
            onChange={setWhiskers}
            options={[
              { value: "ci", label: "Median, 95% CI" },
              { value: "sd", label: "Mean ± sd" },
            ]}
          />
        }
      >
        <ResponsiveContainer width="100%" height="100%">
          {/* The margin on the value side leaves room for the label beyond the longest whisker. */}
          <ComposedChart
            data={rows}
            layout={horizontal ? "vertical" : "horizontal"}
            margin={horizontal ? { top: 4, right: labelRoom, bottom: 4, left: 4 } : { top: 26, right: 12, bottom: 4, left: 4 }}
          >
            <CartesianGrid horizontal={!horizontal} vertical={horizontal} stroke={gridStroke} />
            {horizontal ? (
              <>
                <XAxis {...valueAxis} />
                <YAxis
                  type="category"
                  dataKey="variant"
                  interval={0}
                  tickLine={false}
                  axisLine={axisLine}
                  tick={tick}
                  width={Math.min(160, Math.round(width * 0.4))}
                />
              </>
            ) : (
              <>
                <XAxis type="category" dataKey="variant" interval={0} tickLine={false} axisLine={axisLine} tick={tick} height={44} />
                <YAxis {...valueAxis} width="auto" />
              </>
            )}
            <Tooltip
              cursor={{ fill: "var(--surface-2)" }}
              isAnimationActive={false}
              content={({ active, payload }) => {
                const row = payload?.[0]?.payload as Row | undefined;
                if (!active || !row) return null;
                return <TooltipBox title={`${row.variant}${row.isBaseline ? " (baseline)" : ""}`} lines={barTooltipLines(row, metric.unit)} />;
              }}
            />
            <Bar dataKey="value" isAnimationActive={false} maxBarSize={horizontal ? 26 : 96} name={whiskers === "ci" ? "median" : "mean"}>
              {rows.map((row) => (
                <Cell
                  key={row.variant}
                  fill={colorOf(variants, row.variant)}
                  fillOpacity={0.85}
                  stroke={row.isBaseline ? "var(--text)" : "none"}
                  strokeWidth={row.isBaseline ? 2 : 0}
                  strokeDasharray={row.isBaseline ? "5 3" : undefined}
                />
              ))}
              <ErrorBar dataKey="error" width={horizontal ? 7 : 10} strokeWidth={1.75} stroke="var(--text)" isAnimationActive={false} />
              <LabelList dataKey="value" content={<ValueLabel rows={rows} horizontal={horizontal} />} />
            </Bar>
          </ComposedChart>
        </ResponsiveContainer>
      </ChartFrame>
    </div>
  );
}
