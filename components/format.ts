// The components' own wording: counts of things and a moment on the user's clock. Figures, units,
// verdicts and dates in UTC are written by server/display/display.ts (the report and the CSV use it too);
// its words for labels and dates are passed on here for the pages that need only those.
import { formatDateTime } from "~/server/display/display";

export { directionLabel, formatDateTime, perRunLabel } from "~/server/display/display";

export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/**
 * A moment on the user's own clock and in UTC, e.g. "25 Nov 2026, 23:59 your time (2026-11-25
 * 22:59 UTC)": for what someone just picked in their time zone, beside the UTC that lists show.
 */
export function formatYourTime(date: Date): string {
  const local = new Intl.DateTimeFormat("en-GB", {
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).format(date);
  return `${local} your time (${formatDateTime(date)})`;
}
