// wrk's printed quantities with their units, as wrk's src/units.c formats them:
//   times  "368.00us", "3.07ms", "2.02s", "1.50m", "2.00h" (µs→ms→s at ×1000, then s→m→h at ×60)
//   bytes  "512.00B", "24.09MB" (binary: K/M/G/T/P are powers of 1024, then "B")
//   counts "5.38k", "11.98M" (metric: powers of 1000), or plain "975.00"
// Each parser returns the value in one base unit, or throws naming the token.
import { parseDecimal } from "./numeric-cells";
import { ImportFormatError } from "./types";

const FORMAT = "wrk";

// Microseconds are divided rather than multiplied by 0.001, so "368.00us" is exactly 0.368 ms.
const TIME_MS: Record<string, (n: number) => number> = {
  us: (n) => n / 1000,
  ms: (n) => n,
  s: (n) => n * 1000,
  m: (n) => n * 60_000,
  h: (n) => n * 3_600_000,
};
const BINARY: Record<string, number> = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3, TB: 1024 ** 4, PB: 1024 ** 5 };
const METRIC: Record<string, number> = { "": 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15 };

// The number part: digits, or wrk's "nan"/"inf" (refused later with their own message).
const NUMBER = String.raw`([-+]?(?:[\d.]+(?:e[-+]?\d+)?|[nN]a[nN]|[iI]nf))`;

function split(token: string, units: string, kind: string, where: string): { number: string; unit: string } {
  const match = new RegExp(`^${NUMBER}${units}$`).exec(token);
  if (!match) throw new ImportFormatError(FORMAT, `"${token}" is not a ${kind} at ${where}`);
  return { number: match[1] ?? "", unit: match[2] ?? "" };
}

/** A wrk time such as "368.00us" or "2.02s", in milliseconds. */
export function wrkTimeMs(token: string, where: string): number {
  const { number, unit } = split(token, "(us|ms|s|m|h)", "time with a unit (us, ms, s, m, h)", where);
  const toMs = TIME_MS[unit] ?? (() => NaN);
  return toMs(parseDecimal(FORMAT, number, where));
}

/** A wrk byte size such as "24.09MB", in bytes. */
export function wrkBytes(token: string, where: string): number {
  const { number, unit } = split(token, "(B|KB|MB|GB|TB|PB)", "size with a unit (B, KB, MB, GB, …)", where);
  return parseDecimal(FORMAT, number, where) * (BINARY[unit] ?? NaN);
}

/** A wrk count such as "5.38k" or "975.00". */
export function wrkCount(token: string, where: string): number {
  const { number, unit } = split(token, "(k|M|G|T|P)?", "number", where);
  return parseDecimal(FORMAT, number, where) * (METRIC[unit] ?? NaN);
}
