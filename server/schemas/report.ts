// The exports of one experiment: the Markdown report and the CSV files. tRPC procedures and the
// download route handlers share these shapes.
import { z } from "zod";
import { ZComparisonRef } from "./comparison";

/**
 * A chart image that travels beside the report as charts/<name>. The browser renders the charts
 * and names the files; the server only links them, so the name must be a plain, safe file name.
 */
export const ZChartFileName = z
  .string()
  .max(200)
  .regex(/^[A-Za-z0-9_-][A-Za-z0-9._-]*\.png$/, "a chart file name is letters, digits, _ . - and ends in .png");

export const ZReportRequest = ZComparisonRef.extend({
  /** Chart images the browser puts in the zip beside report.md, linked from its "Charts" section. */
  chartFiles: z.array(ZChartFileName).max(200).default([]),
});
export type TReportRequest = z.output<typeof ZReportRequest>;

/** A generated file: its suggested name and its text. */
export const ZExportFile = z.object({ fileName: z.string(), contentType: z.string(), text: z.string() });
export type TExportFile = z.output<typeof ZExportFile>;

/**
 * The file name of a chart image: "<metric key>-<kind>.png" with anything but letters, digits,
 * "_", "." and "-" replaced (metric keys may hold "/" and ":"). The browser names the files with
 * it and the report recognises which metric a chart belongs to with it.
 */
export function chartFileName(metricKey: string, kind: string): string {
  return `${safeFilePart(metricKey)}-${safeFilePart(kind)}.png`;
}

export function safeFilePart(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]+/g, "_").replace(/^\.+/, "_") || "_";
}
