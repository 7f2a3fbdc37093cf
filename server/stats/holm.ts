// Holm's step-down correction for several candidates compared with one baseline.
// Sorted ascending, p_(i) is multiplied by (m − i + 1); the running maximum keeps the adjusted
// values monotone; capped at 1 (statsmodels' multipletests(method="holm")). Null entries (no
// test) are left out of the family and stay null.

export function holmAdjust(pValues: readonly (number | null)[]): (number | null)[] {
  const indexed = pValues
    .map((p, index) => ({ p, index }))
    .filter((e): e is { p: number; index: number } => e.p !== null)
    .sort((a, b) => a.p - b.p || a.index - b.index);
  const m = indexed.length;
  const out: (number | null)[] = pValues.map(() => null);
  let running = 0;
  indexed.forEach((e, i) => {
    running = Math.max(running, Math.min(1, (m - i) * e.p));
    out[e.index] = running;
  });
  return out;
}
