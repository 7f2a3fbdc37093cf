// How the statistics write a change and a p-value, in their own notes ("U test cannot reach α")
// and everywhere the UI prints one (server/display/display.ts re-exports both, with the rules):
// a change is a percentage with two decimals between −50% and +100% and a factor of the baseline
// outside it ("410×" rather than "+40,914.41%"); a p-value has three decimals, or two significant
// digits below 0.001.

/** No figure to print: absent, or not a finite number (NaN, ±Infinity). */
export const missing = (value: number | null | undefined): value is null | undefined => value === null || value === undefined || !Number.isFinite(value);

/** How a change is written: a percentage, or a factor of the baseline ("410×"). */
export type ChangeStyle = "percent" | "factor";

/** Outside −50% … +100% a factor reads better than a percentage; at or below −100% no factor is meaningful. */
const asFactor = (percent: number) => {
  const ratio = 1 + percent / 100;
  return ratio >= 2 || (ratio > 0 && ratio <= 0.5);
};

/**
 * The one style for a change and its interval, so "2.7× [0.902×, 4.92×]" never reads
 * "2.7× [−9.84%, 4.92×]": factors when any of them is outside −50% … +100%.
 */
export function changeStyle(...percents: (number | null | undefined)[]): ChangeStyle {
  return percents.some((percent) => !missing(percent) && asFactor(percent)) ? "factor" : "percent";
}

/** "−4.37%", "+12.00%", or (style "factor", by default outside −50% … +100%) a factor of the baseline: "410×", "0.0024×". */
export function formatChange(percent: number | null | undefined, style: ChangeStyle = changeStyle(percent)): string {
  if (missing(percent)) return "—";
  const ratio = 1 + percent / 100;
  if (style === "factor" && ratio > 0) {
    const digits = ratio >= 1000 ? 0 : Math.max(0, 2 - Math.floor(Math.log10(ratio)));
    return `${ratio.toLocaleString("en-US", { maximumFractionDigits: digits })}×`;
  }
  const sign = percent > 0 ? "+" : percent < 0 ? "−" : "±";
  return `${sign}${Math.abs(percent).toFixed(2)}%`;
}

/** "0.032", or "1.2e-5" for tiny p; "—" when there is no test. */
export function formatP(p: number | null | undefined): string {
  if (missing(p)) return "—";
  return p >= 0.001 ? p.toFixed(3) : p.toExponential(1);
}
