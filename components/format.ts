// Display helpers shared by pages (dates, counts, enum labels).

export function formatDateTime(value: Date | string | null | undefined): string {
  if (!value) return "—";
  const date = typeof value === "string" ? new Date(value) : value;
  return date.toISOString().replace("T", " ").slice(0, 16) + " UTC";
}

export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

export const directionLabel = {
  lower_is_better: "lower is better",
  higher_is_better: "higher is better",
} as const;

/** A measurement for tables: 4 significant digits, thousands grouped, no exponent for everyday sizes. */
export function formatValue(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "—";
  const magnitude = Math.abs(value);
  if (magnitude !== 0 && (magnitude >= 1e12 || magnitude < 1e-4)) return value.toExponential(3);
  const digits = magnitude >= 1000 ? 0 : Math.max(0, 3 - Math.floor(Math.log10(magnitude || 1)));
  return value.toLocaleString("en-US", { maximumFractionDigits: Math.min(digits, 6), minimumFractionDigits: 0 });
}
