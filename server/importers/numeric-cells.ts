// Turning a tool's printed numbers into finite JavaScript numbers, with the reason in the error
// when a cell is not one. Number() alone is too lenient ("" → 0, "0x1f" → 31, " 1 " → 1).
import { ImportFormatError } from "./types";

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const NOT_FINITE = /^[+-]?(nan|inf(inity)?)$/i;

/**
 * Parses a decimal number printed by a tool. `where` says where it was, e.g. "line 4, column
 * \"TPS\"", for the error message.
 */
export function parseDecimal(format: string, text: string, where: string): number {
  const cell = text.trim();
  if (cell === "") throw new ImportFormatError(format, `empty value at ${where}`);
  if (NOT_FINITE.test(cell)) throw new ImportFormatError(format, `${cell} is not a finite number, at ${where}`);
  if (!DECIMAL.test(cell)) throw new ImportFormatError(format, `non-numeric value "${cell}" at ${where}`);
  const value = Number(cell);
  // 1e999 passes the pattern but overflows to Infinity.
  if (!Number.isFinite(value)) throw new ImportFormatError(format, `${cell} is not a finite number, at ${where}`);
  return value;
}

/** Throws when a count, duration or size is negative, which no tool prints for a real run. */
export function requireNonNegative(format: string, value: number, what: string, where: string): number {
  if (value < 0) throw new ImportFormatError(format, `negative ${what} (${value}) at ${where}`);
  return value;
}

export function mean(values: readonly number[]): number {
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

/** Sample standard deviation (n − 1); undefined for fewer than two values. */
export function sampleSd(values: readonly number[]): number | undefined {
  if (values.length < 2) return undefined;
  const m = mean(values);
  let squares = 0;
  for (const v of values) squares += (v - m) * (v - m);
  return Math.sqrt(squares / (values.length - 1));
}

/** Min and max without spreading (Math.min(...xs) overflows the stack for big sample arrays). */
export function extent(values: readonly number[]): { min: number; max: number } {
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return { min, max };
}
