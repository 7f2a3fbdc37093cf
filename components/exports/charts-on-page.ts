// Finds the charts the experiment page shows, to put them in the report zip as PNG files. The
// charts' contract (components/charts/chart-frame.tsx): each is a <figure data-chart="<metricKey>/<kind>">
// holding the one <svg> Recharts draws.
import { chartFileName } from "~/server/schemas/report";

export interface PageChart {
  fileName: string;
  svg: SVGSVGElement;
}

/** Metric keys may contain "/" (Go benchmark names): the kind is what follows the last one. */
function splitChartId(chartId: string): { metricKey: string; kind: string } {
  const slash = chartId.lastIndexOf("/");
  return slash < 0 ? { metricKey: chartId, kind: "chart" } : { metricKey: chartId.slice(0, slash), kind: chartId.slice(slash + 1) || "chart" };
}

/** Every drawn chart under `root`, in page order, with a unique file name each. */
export function chartsOnPage(root: ParentNode = document): PageChart[] {
  const charts: PageChart[] = [];
  const taken = new Set<string>();
  for (const figure of root.querySelectorAll<HTMLElement>("figure[data-chart]")) {
    // A chart still loading or with nothing to draw has no <svg> yet: it is left out.
    const svg = figure.querySelector<SVGSVGElement>("svg.recharts-surface") ?? figure.querySelector<SVGSVGElement>("svg");
    if (!svg) continue;
    const { metricKey, kind } = splitChartId(figure.dataset.chart ?? "chart");
    let fileName = chartFileName(metricKey, kind);
    for (let n = 2; taken.has(fileName); n++) fileName = chartFileName(metricKey, `${kind}-${n}`);
    taken.add(fileName);
    charts.push({ fileName, svg });
  }
  return charts;
}
