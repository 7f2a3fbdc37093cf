// Display helpers shared by pages (dates, counts, enum labels). Figures and verdicts are worded
// by server/display.ts, which the report uses too.
export { directionLabel, formatDateTime, formatMeasure as formatValue } from "~/server/display";

export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}


