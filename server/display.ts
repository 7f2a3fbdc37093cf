// How figures, verdicts and times are worded wherever people read them — the experiment page, the
// cross-experiment page, the Markdown report and the CSV summary — so all say the same thing.
// Plain functions, no React: components/ and server/services/ both use them.
import { formatP as formatPValue, formatPercent as formatPercentValue } from "./stats/format";

export const verdictLabel = { better: "better", worse: "worse", no_change: "no significant change", insufficient_data: "not enough data" } as const;

export const directionLabel = { lower_is_better: "lower is better", higher_is_better: "higher is better" } as const;

/** A measurement: 4 significant digits, thousands grouped, no exponent for everyday sizes. */
export function formatMeasure(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "—";
  const magnitude = Math.abs(value);
  if (magnitude !== 0 && (magnitude >= 1e12 || magnitude < 1e-4)) return value.toExponential(3);
  const digits = magnitude >= 1000 ? 0 : Math.max(0, 3 - Math.floor(Math.log10(magnitude || 1)));
  return value.toLocaleString("en-US", { maximumFractionDigits: Math.min(digits, 6), minimumFractionDigits: 0 });
}

/** "−4.37%", the statistics engine's own rounding; "—" when unknown. */
export function formatPercent(value: number | null | undefined): string {
  return value === null || value === undefined ? "—" : formatPercentValue(value);
}

/** "0.032", or "1.2e-5" for tiny p; "—" when there is no test. */
export function formatP(p: number | null | undefined): string {
  return p === null || p === undefined ? "—" : formatPValue(p);
}

/** A moment as people read it everywhere in Versus: to the minute, always UTC. */
export function formatDateTime(value: Date | string | null | undefined): string {
  if (!value) return "—";
  const date = typeof value === "string" ? new Date(value) : value;
  return date.toISOString().replace("T", " ").slice(0, 16) + " UTC";
}

/** How a person is named in lists and messages: their name, or their email when they gave none. */
export function personLabel(person: { name: string; email: string }): string {
  return person.name || person.email;
}
