"use client";
// Run-to-run spread: every run's value (the one it contributes to the comparison) as a dot in its
// variant's column, with the variant's median as a bar across. Two overlapping clouds are the
// picture of "no significant change"; a run far from its siblings is a run to look into.
import { CartesianGrid, ComposedChart, ResponsiveContainer, Scatter, Tooltip, XAxis, YAxis } from "recharts";
import { formatMeasure } from "~/server/display/display";
import type { TMetricCharts } from "~/server/schemas/charts";
import { barLabel } from "./bar-figures";
import { ChartFrame } from "./chart-frame";
import { linearAxis } from "./nice-axis";
import { axisLine, axisTick, colorOf, gridStroke, type ChartVariant } from "./palette";
import { TooltipBox } from "./tooltip";
import { useWidth } from "./use-width";
import { VariantTick } from "./variant-tick";

interface Dot {
  x: number;
  value: number;
  /** What the tooltip says: a run's value, or the variant's median as the table prints it. */
  text: string;
  variant: string;
  repetition: number | null;
  runId: string | null;
}

/** Spreads a column's dots sideways in run order (deterministic, so a reload draws the same picture). */
function spread(i: number, count: number): number {
  return count <= 1 ? 0 : -0.22 + (0.44 * i) / (count - 1);
}

/** The median marker: a short bar across the column (or the row, on a phone). */
function MedianMark({ cx, cy, horizontal }: { cx?: number; cy?: number; horizontal: boolean }) {
  if (cx === undefined || cy === undefined) return null;
  const half = horizontal ? 14 : 22;
  return horizontal ? (
    <line x1={cx} x2={cx} y1={cy - half} y2={cy + half} stroke="var(--text)" strokeWidth={2.5} strokeLinecap="round" />
  ) : (
    <line x1={cx - half} x2={cx + half} y1={cy} y2={cy} stroke="var(--text)" strokeWidth={2.5} strokeLinecap="round" />
  );
}

/** Below this many pixels per variant, columns' names collide: draw one row per variant instead. */
const MIN_COLUMN_PX = 84;
const ROW_PX = 44;

export function StripPlot({ metric, variants, fileName }: { metric: TMetricCharts; variants: readonly ChartVariant[]; fileName: string }) {
  const columns = variants.filter((v) => metric.runs.some((r) => r.variant === v.name));
  const names = columns.map((c) => c.name);
  const dotsOf = (name: string, x: number): Dot[] => {
    const own = metric.runs.filter((r) => r.variant === name);
    return own.map((r, i) => ({
      x: x + spread(i, own.length),
      value: r.value,
      text: formatMeasure(r.value, metric.unit),
      variant: name,
      repetition: r.repetition,
      runId: r.runId,
    }));
  };
  const medians: Dot[] = columns.flatMap((c, x) => {
    const bar = metric.bars.find((b) => b.variant === c.name);
    return bar ? [{ x, value: bar.median, text: barLabel(bar, "ci", metric.unit), variant: c.name, repetition: null, runId: null }] : [];
  });
  const values = [...metric.runs.map((r) => r.value), ...medians.map((m) => m.value)];
  const valueAxis = linearAxis(metric.unit, Math.min(...values), Math.max(...values));
  const rows = columns.map((c) => ({ variant: c.name, isBaseline: c.isBaseline }));
  const [box, width] = useWidth<HTMLDivElement>();
  const horizontal = width > 0 && width / Math.max(1, columns.length) < MIN_COLUMN_PX;
  // Columns (or rows) sit at 0, 1, 2…; the axis shows the variant's name at each.
  const positionAxis = {
    dataKey: "x",
    type: "number",
    domain: [-0.5, columns.length - 0.5],
    ticks: columns.map((_, i) => i),
    interval: 0,
    tickLine: false,
    axisLine,
    tick: <VariantTick rows={rows} names={names} horizontal={horizontal} />,
  } as const;
  const valueAxisProps = {
    dataKey: "value",
    type: "number",
    domain: valueAxis.domain,
    ticks: valueAxis.ticks,
    tickFormatter: valueAxis.format,
    tick: axisTick,
    axisLine,
    tickLine: false,
  } as const;

  return (
    <div ref={box}>
      <ChartFrame
        chartId={`${metric.key}/runs`}
        label={`Each run's ${metric.key} per variant`}
        caption={`One dot per run: its ${metric.aggregation}, the value the comparison uses; the bar across is the variant's median.`}
        fileName={fileName}
        height={horizontal ? columns.length * ROW_PX + 48 : 320}
        empty={columns.length === 0 ? "No runs with this metric yet" : null}
      >
        <ResponsiveContainer width="100%" height="100%">
          <ComposedChart layout={horizontal ? "vertical" : "horizontal"} margin={{ top: 16, right: horizontal ? 20 : 12, bottom: 4, left: 4 }}>
            <CartesianGrid vertical={horizontal} horizontal={!horizontal} stroke={gridStroke} />
            {horizontal ? (
              <>
                <XAxis {...valueAxisProps} />
                {/* Reversed: the first variant on top, as in the list of variants. */}
                <YAxis {...positionAxis} domain={[columns.length - 0.5, -0.5]} width={Math.min(160, Math.round(width * 0.4))} />
              </>
            ) : (
              <>
                <XAxis {...positionAxis} height={44} />
                <YAxis {...valueAxisProps} width="auto" />
              </>
            )}
            <Tooltip
              isAnimationActive={false}
              cursor={false}
              content={({ active, payload }) => {
                const dot = payload?.[0]?.payload as Dot | undefined;
                if (!active || !dot) return null;
                // The median marker has no repetition; a shared comparison's runs have no id.
                return dot.repetition === null ? (
                  <TooltipBox title={`${dot.variant}: median`} lines={[dot.text]} />
                ) : (
                  <TooltipBox
                    title={`${dot.variant}, run #${dot.repetition}`}
                    lines={[
                      dot.text,
                      ...(dot.runId
                        ? [
                            <span key="id" className="muted">
                              {dot.runId}
                            </span>,
                          ]
                        : []),
                    ]}
                  />
                );
              }}
            />
            {columns.map((c, x) => (
              <Scatter
                key={c.name}
                name={c.name}
                data={dotsOf(c.name, x)}
                fill={colorOf(variants, c.name)}
                fillOpacity={0.8}
                stroke="var(--surface)"
                strokeWidth={1}
                isAnimationActive={false}
              />
            ))}
            <Scatter name="median" data={medians} shape={<MedianMark horizontal={horizontal} />} isAnimationActive={false} />
          </ComposedChart>
        </ResponsiveContainer>
      </ChartFrame>
    </div>
  );
}
