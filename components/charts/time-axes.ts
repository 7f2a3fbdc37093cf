// The axes of the over-time charts (time-series-chart.tsx, target-overlay-chart.tsx): the time
// since the run's start across, the value up, drawn alike in both. Props for Recharts' XAxis and
// YAxis, which must stay direct children of the chart.
import type { Axis } from "./nice-axis";
import { axisLine, axisTick } from "./palette";

export function elapsedXAxisProps(x: Axis) {
  return {
    dataKey: "tMs",
    type: "number" as const,
    domain: x.domain,
    ticks: x.ticks,
    tickFormatter: x.format,
    tick: axisTick,
    axisLine,
    tickLine: false,
    allowDuplicatedCategory: false,
  };
}

export function valueYAxisProps(y: Axis) {
  return {
    dataKey: "value",
    type: "number" as const,
    domain: y.domain,
    ticks: y.ticks,
    tickFormatter: y.format,
    tick: axisTick,
    axisLine,
    tickLine: false,
    width: "auto" as const,
  };
}
