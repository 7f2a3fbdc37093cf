// Number formatting for the human-readable reasons in results.

export function formatP(p: number): string {
  if (p >= 0.001) return p.toFixed(3);
  return p.toExponential(1);
}

export function formatPercent(percent: number): string {
  const sign = percent > 0 ? "+" : percent < 0 ? "−" : "±";
  return `${sign}${Math.abs(percent).toFixed(2)}%`;
}

export function formatNumber(x: number): string {
  return Number.isInteger(x) ? String(x) : String(Number(x.toPrecision(4)));
}
