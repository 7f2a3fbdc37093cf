"use client";
// The box every chart sits in: <figure data-chart="metric/kind"> with the chart's own options, the
// chart (one <svg>), a caption saying what is drawn, and SVG / PNG downloads of exactly that chart.
// Before hydration it shows a skeleton of the chart's height (Recharts measures its container in
// the browser), so the page does not jump; a chart that throws shows an error in its place.
import { useRef, useState, type ReactNode } from "react";
import { useHydrated } from "~/components/forms/use-hydrated";
import { ChartErrorBoundary } from "./chart-error-boundary";
import { downloadBlob, svgToPngBlob, svgToString } from "./export-image";

export interface ChartFrameProps {
  /** `<metricKey>/<kind>`, e.g. "latency/bars". */
  chartId: string;
  label: string;
  caption: ReactNode;
  /** Download name without extension. */
  fileName: string;
  height: number;
  /** The chart's own toggles (CI/sd, log axis, …). */
  options?: ReactNode;
  /** When set, the chart is not drawn and this says why. */
  empty?: string | null;
  children: ReactNode;
}

export function ChartFrame({ chartId, label, caption, fileName, height, options, empty, children }: ChartFrameProps) {
  const hydrated = useHydrated();
  const figure = useRef<HTMLElement>(null);
  const [exportError, setExportError] = useState<string | null>(null);

  const chartSvg = () => figure.current?.querySelector<SVGSVGElement>("svg.recharts-surface") ?? null;
  const download = async (format: "svg" | "png") => {
    const svg = chartSvg();
    if (!svg) return setExportError("The chart is not drawn yet.");
    try {
      setExportError(null);
      const blob = format === "svg" ? new Blob([svgToString(svg)], { type: "image/svg+xml" }) : await svgToPngBlob(svg);
      downloadBlob(blob, `${fileName}.${format}`);
    } catch (error) {
      setExportError(`The ${format.toUpperCase()} could not be made: ${error instanceof Error ? error.message : String(error)}`);
    }
  };

  return (
    <figure className="chart" data-chart={chartId} aria-label={label} ref={figure}>
      <div className="chart-toolbar">
        <div className="options">{empty ? null : options}</div>
        {empty ? null : (
          <div className="options" role="group" aria-label="Download chart">
            <button type="button" className="button small" disabled={!hydrated} onClick={() => void download("svg")} title="Download this chart as SVG">
              SVG
            </button>
            <button type="button" className="button small" disabled={!hydrated} onClick={() => void download("png")} title="Download this chart as PNG">
              PNG
            </button>
          </div>
        )}
      </div>
      <div className="chart-body" style={{ height }}>
        {empty ? (
          <div className="chart-state">{empty}</div>
        ) : hydrated ? (
          <ChartErrorBoundary>{children}</ChartErrorBoundary>
        ) : (
          <div className="chart-skeleton" aria-busy="true">
            Loading chart…
          </div>
        )}
      </div>
      <figcaption>{caption}</figcaption>
      {exportError ? (
        <p className="error" role="alert">
          {exportError}
        </p>
      ) : null}
    </figure>
  );
}
