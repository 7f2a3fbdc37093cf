// What a bar's label and tooltip print: the comparison table's own figures for the same variant,
// through the same functions of server/display/display.ts (median and interval rounded at the nearer
// bound's second significant digit, mean at the sd's), so no figure reads one way in the table
// and another on the chart.
import { formatMeanSd, formatMedianFigures, meanSdText, medianText, withUnit } from "~/server/display/display";
import type { TBarFigure } from "~/server/schemas/charts";

export type Whiskers = "ci" | "sd";

type Bar = Pick<TBarFigure, "median" | "ciLow" | "ciHigh" | "ciConfidence" | "mean" | "sd" | "n">;

const intervalOf = (bar: Bar) => (bar.ciLow !== null && bar.ciHigh !== null ? { low: bar.ciLow, high: bar.ciHigh } : null);

/** The label beyond a bar: its median (whiskers: CI) or its mean (whiskers: sd), with the unit. */
export function barLabel(bar: Bar, whiskers: Whiskers, unit: string): string {
  if (whiskers === "sd") {
    const figures = formatMeanSd(bar.mean, bar.sd, unit);
    return withUnit(figures.mean, figures);
  }
  const figures = formatMedianFigures({ median: bar.median, medianCi: intervalOf(bar) }, unit);
  return withUnit(figures.median, figures);
}

/** The tooltip's lines: median [CI] at its confidence, mean ± sd, runs. */
export function barTooltipLines(bar: Bar, unit: string): string[] {
  const confidence = bar.ciConfidence !== null && intervalOf(bar) ? ` · ${(bar.ciConfidence * 100).toFixed(1)}% CI` : "";
  return [
    `median ${medianText({ median: bar.median, medianCi: intervalOf(bar) }, unit)}${confidence}`,
    `mean ${meanSdText(bar.mean, bar.sd, unit)}`,
    `${bar.n} run${bar.n === 1 ? "" : "s"}`,
  ];
}
