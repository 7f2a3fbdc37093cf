// Display helpers shared by pages (dates, counts, enum labels). Figures and verdicts are worded
// by server/display.ts, which the report uses too.
export { directionLabel, formatMeasure as formatValue } from "~/server/display";

export function formatDateTime(value: Date | string | null | undefined): string {
  if (!value) return "—";
  const date = typeof value === "string" ? new Date(value) : value;
  return date.toISOString().replace("T", " ").slice(0, 16) + " UTC";
}

export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}


