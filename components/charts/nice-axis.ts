// Round tick positions in the unit the axis prints: 0, 10, 20 … 60 KiB rather than the 0, 14.6,
// 29.3 KiB that round numbers of bytes give. Pure layout: which numbers to print on an axis; the
// numbers themselves are written by server/display/display.ts, like every other figure.
import { formatElapsed, formatInScale, formatMeasure, unitScale } from "~/server/display/display";

export interface Axis {
  domain: [number, number];
  ticks: number[];
  format: (value: number) => string;
}

/** The step of 1, 2, 2.5 or 5 × 10^k nearest above `raw`. */
function niceStep(raw: number): number {
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].find((m) => m * power >= raw * (1 - 1e-9)) ?? 10;
  return step * power;
}

/** A linear axis over [min, max] (widened to include 0 when `fromZero`), about `count` ticks. */
export function linearAxis(unit: string, min: number, max: number, { fromZero = false, count = 5 } = {}): Axis {
  let low = fromZero ? Math.min(0, min) : min;
  let high = fromZero ? Math.max(0, max) : max;
  if (!Number.isFinite(low) || !Number.isFinite(high)) [low, high] = [0, 1];
  if (high <= low) {
    const pad = Math.abs(high) * 0.1 || 1;
    [low, high] = fromZero && low === 0 ? [0, high + pad] : [low - pad, high + pad];
  }
  const magnitude = Math.max(Math.abs(low), Math.abs(high));
  const scale = unitScale(unit, magnitude);
  const factor = scale.factor;
  const step = niceStep(((high - low) * factor) / Math.max(1, count - 1));
  const first = Math.floor((low * factor) / step + 1e-9);
  const last = Math.ceil((high * factor) / step - 1e-9);
  const ticks: number[] = [];
  // Tick values divided back into the metric's unit; toPrecision drops the float noise of k × step.
  for (let k = first; k <= last; k++) ticks.push(Number(((k * step) / factor).toPrecision(12)));
  return {
    domain: [ticks[0] as number, ticks.at(-1) as number],
    ticks,
    format: (value) => (value === 0 ? formatMeasure(0, unit) : formatInScale(value, scale)),
  };
}

const TIME_STEPS_MS = [
  1, 2, 5, 10, 20, 50, 100, 200, 500, 1e3, 2e3, 5e3, 10e3, 15e3, 30e3, 60e3, 120e3, 300e3, 600e3, 900e3, 1800e3, 3600e3, 7200e3, 21600e3, 43200e3, 86400e3,
];

/** Elapsed time from 0 to `spanMs`, ticks on round seconds, minutes or hours. */
export function elapsedAxis(spanMs: number, count = 7): Axis {
  const span = spanMs > 0 ? spanMs : 1;
  const step = TIME_STEPS_MS.find((s) => span / s <= count) ?? Math.ceil(span / count);
  const ticks: number[] = [];
  for (let t = 0; t <= span + 1e-9; t += step) ticks.push(t);
  return { domain: [0, span], ticks, format: (value) => formatElapsed(value, span) };
}
