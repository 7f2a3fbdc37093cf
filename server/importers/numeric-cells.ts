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

/**
 * The largest count an import keeps: beyond 2^53 − 1 a float64 no longer holds every whole
 * number, so a bigger count could not be stored as the tool printed it.
 */
export const COUNT_LIMIT = `at most ${Number.MAX_SAFE_INTEGER} (2^53 − 1)`;

/** The message of a Zod whole-number check on a count: too big, or not whole. */
export const countIssue = (issue: { code: string }) => (issue.code === "too_big" ? `must be ${COUNT_LIMIT}` : "must be a whole number");

/** Throws unless a count (requests, iterations, tests) is a whole number from 0 to 2^53 − 1. */
export function requireCount(format: string, value: number, what: string, where: string, printed = String(value)): number {
  requireNonNegative(format, value, what, where);
  if (!Number.isInteger(value)) throw new ImportFormatError(format, `${what} "${printed}" is not a whole number, at ${where}`);
  if (value > Number.MAX_SAFE_INTEGER) throw new ImportFormatError(format, `${what} ${printed} is too large: a count must be ${COUNT_LIMIT}, at ${where}`);
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
