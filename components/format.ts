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
