// Tick positions for a log axis: 1-2-5 steps per decade (1-2-…-9 when the range is under a
// decade), and a domain from the tick at or below the lowest value to the one at or above the
// highest, so the data never touches the frame. Pure layout: which numbers to print on an axis.
export interface LogAxis {
  domain: [number, number];
  ticks: number[];
}

function candidates(min: number, max: number, steps: readonly number[]): number[] {
  const out: number[] = [];
  for (let exponent = Math.floor(Math.log10(min)) - 1; exponent <= Math.ceil(Math.log10(max)); exponent++) {
    for (const step of steps) out.push(Number((step * 10 ** exponent).toPrecision(12)));
  }
  return out;
}

export function logAxis(min: number, max: number): LogAxis | null {
  if (!(min > 0) || !(max >= min) || !Number.isFinite(max)) return null;
  const steps = max / min >= 10 ? [1, 2, 5] : [1, 2, 3, 4, 5, 6, 7, 8, 9];
  const all = candidates(min, max, steps);
  const low = all.filter((t) => t <= min).at(-1) ?? min;
  const high = all.find((t) => t >= max) ?? max;
  let ticks = all.filter((t) => t >= low && t <= high);
  // Many decades: keep the powers of ten only, or the labels collide.
  if (ticks.length > 10) ticks = ticks.filter((t) => Number.isInteger(Math.log10(t)) || Math.abs(Math.log10(t) - Math.round(Math.log10(t))) < 1e-9);
  return { domain: [low, high], ticks };
}
