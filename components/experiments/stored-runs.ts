// The Method box's measured runs: what was planned beside what is stored, so a planned count never
// stands alone next to a list of many more (or fewer) runs.
import { plural } from "~/components/format";

export function measuredRunsText(planned: number, variants: readonly { name: string; runCount: number }[]): string {
  const stored = variants.reduce((sum, variant) => sum + variant.runCount, 0);
  const head = `${planned} per variant planned`;
  if (stored === 0) return `${head}, none stored yet`;
  const counts = new Set(variants.map((variant) => variant.runCount));
  if (variants.length === 1 || counts.size === 1) {
    return `${head}, ${plural(stored, "run")} stored${variants.length > 1 ? ` (${variants[0]?.runCount} per variant)` : ""}`;
  }
  return `${head}, ${plural(stored, "run")} stored: ${variants.map((variant) => `${variant.name} ${variant.runCount}`).join(", ")}`;
}
