// Variant colours: CSS variables (app/globals.css) so light and dark mode each get a palette that
// reads on their background. The server numbers the colours, so a variant keeps its colour when
// the baseline changes or a chart shows only some variants.
export interface ChartVariant {
  name: string;
  isBaseline: boolean;
  /** 0–7: index into --series-0 … --series-7. */
  color: number;
}

export function seriesColor(index: number): string {
  return `var(--series-${index % 8})`;
}

export function colorOf(variants: readonly ChartVariant[], name: string): string {
  return seriesColor(variants.find((v) => v.name === name)?.color ?? 7);
}

/** Shared look of axes, grid and tooltips: theme colours instead of Recharts' fixed greys. */
export const axisTick = { fill: "var(--muted)", fontSize: 12 } as const;
export const axisLine = { stroke: "var(--border)" } as const;
export const gridStroke = "var(--chart-grid)";
