// A results upload's large `samples` arrays and `samplesBase64` texts read straight from the JSON
// body into Float64Arrays.
//
// JSON.parse turns each number of a million-sample array into a heap number before it packs them
// into an array, and the schema's check then builds that array again: on such a body this took
// two thirds of an upload's time, most of it in garbage collection. So before parsing, the arrays
// at runs[r].metrics[m].samples that hold LIFT_FROM numbers or more, and nothing but numbers, are
// read here into typed arrays and cut out of the body, each replaced by `[0]`. The rest of the
// body is parsed and checked as before, the stand-ins pass the schema like any sample, and then
// the typed arrays take their places (withLiftedSamples, in ../../runs/checked-upload.ts). The scan reads the body's bytes, not
// its text: a loop over a byte array ran two to four times faster than one over a string.
//
// A `samplesBase64` text of LIFT_FROM values or more is decoded from the body's bytes the same
// way, and `"AAAAAAAAAAA="` (one zero) left in its place: its body, 10 MB for a million values,
// was otherwise decoded from UTF-8 and parsed whole (6 and 8 ms), making two 13.6 MB strings
// for the one decoding needs. It is lifted only when JSON.parse would give the very text
// (readBase64Samples), and stays `samplesBase64`, which prepare-metric.ts checks and names as it
// does the text's.
//
// Only what is certainly right is lifted: an array with anything but JSON numbers in it (a
// string, a null, a malformed number), or a number that is not finite (1e999), stays in the body,
// and JSON.parse and the schema refuse it with the same message and path as before. A body whose
// keys on the way (runs, metrics, samples, samplesBase64) repeat — JSON.parse keeps the last, which the indexes
// here would not follow — is parsed whole. Each number is the double JSON.parse would give: the
// exact fast path for up to 15 significant digits and a power of ten up to 22 (both exact as
// doubles, so one rounding), otherwise Number() on the number's text; an array mostly of such
// numbers is left to JSON.parse, which reads them faster.
import { BASE64_STAND_IN, SAMPLES_STAND_IN, type LiftedSamples } from "../../runs/checked-upload";
import { MAX_INPUT_DEPTH } from "../../schemas/storable";
import { float64FromBytes } from "../../runs/sample-codec";
import { parseJson } from "./body";

/** Smaller arrays cost JSON.parse little; lifting them would only add a scan. */
export const LIFT_FROM = 4096;

/** A `samplesBase64` this long or longer holds LIFT_FROM values or more (8 bytes each, 4 characters per 3). */
const BASE64_LIFT_FROM = Math.ceil((LIFT_FROM * 8) / 3) * 4;

/** The body's value (parseJson) with its large sample arrays left as stand-ins, and those arrays. */
export function parseLiftingSamples(body: Buffer): { value: unknown; lifted: LiftedSamples[] } {
  const { body: rest, lifted } = liftSampleArrays(body);
  if (lifted.length === 0) return { value: parseJson(body), lifted };
  try {
    return { value: parseJson(rest), lifted };
  } catch {
    // Wrong elsewhere: the whole body is parsed for the message, whose byte offsets count in it.
    return { value: parseJson(body), lifted: [] };
  }
}

/** The body with its large sample arrays replaced by stand-ins (STAND_IN), and those arrays; or the body as it was. */
export function liftSampleArrays(body: Buffer): { body: Buffer; lifted: LiftedSamples[] } {
  // LIFT_FROM numbers take about twice as many bytes (digits and commas): a shorter body has none.
  if (body.length < LIFT_FROM * 2) return { body, lifted: [] };
  const found = findLargeSampleArrays(body);
  if (!found || found.length === 0) return { body, lifted: [] };
  const parts: Buffer[] = [];
  let from = 0;
  for (const array of found) {
    parts.push(body.subarray(from, array.start), STAND_IN[array.field]);
    from = array.end;
  }
  parts.push(body.subarray(from));
  return { body: Buffer.concat(parts), lifted: found };
}

/** The stand-ins (checked-upload.ts) as JSON text. */
const STAND_IN = { samples: Buffer.from(JSON.stringify(SAMPLES_STAND_IN)), samplesBase64: Buffer.from(JSON.stringify(BASE64_STAND_IN)) };

interface FoundArray extends LiftedSamples {
  start: number;
  end: number;
}

type Frame = { array: true; index: number } | { array: false; key: string | undefined; seen: Set<string> | undefined };

/** The keys on the way to a lifted array, by depth: the body's "runs", a run's "metrics"; then a metric's LIFTED_FIELDS. */
const PATH_KEYS = ["runs", undefined, "metrics", undefined] as const;
const LIFTED_FIELDS = ["samples", "samplesBase64"] as const;

/** Whether `key` is one the scan follows (or lifts) at this depth of the stack. */
const watchedAt = (depth: number, key: string | undefined) =>
  depth === PATH_KEYS.length ? (LIFTED_FIELDS as readonly (string | undefined)[]).includes(key) : PATH_KEYS[depth] !== undefined && key === PATH_KEYS[depth];

const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_OBJECT = 123;
const CLOSE_OBJECT = 125;
const OPEN_ARRAY = 91;
const CLOSE_ARRAY = 93;
const COMMA = 44;
const MINUS = 45;
const PLUS = 43;
const DOT = 46;
const ZERO = 48;
const NINE = 57;
const E_LOWER = 101;
const E_UPPER = 69;
const EQUALS = 61;

/**
 * The large number-only arrays at runs[r].metrics[m].samples and the large texts at
 * runs[r].metrics[m].samplesBase64, in body order; undefined when the body is not one this scan
 * can follow (JSON.parse then parses it whole, and says what is wrong). Only brackets, braces,
 * commas and strings matter for where it is.
 */
function findLargeSampleArrays(body: Buffer): FoundArray[] | undefined {
  const found: FoundArray[] = [];
  const stack: Frame[] = [];
  const flatArrayEnd = flatArrayEnds(body);
  let expectKey = false;
  for (let at = 0; at < body.length; at++) {
    const byte = body[at]!;
    if (byte === QUOTE) {
      const end = stringEnd(body, at);
      if (end < 0) return undefined;
      const top = stack.at(-1);
      if (expectKey && top && !top.array) {
        expectKey = false;
        const depth = stack.length - 1;
        // Only the keys of objects on the way are read; any other key is just skipped.
        top.key = depth === PATH_KEYS.length || PATH_KEYS[depth] !== undefined ? keyText(body, at, end) : undefined;
        if (watchedAt(depth, top.key)) {
          top.seen ??= new Set();
          if (top.seen.has(top.key as string)) return undefined; // JSON.parse keeps the last; the indexes would not
          top.seen.add(top.key as string);
        }
      } else if (end - at > BASE64_LIFT_FROM && onLiftedPath(stack, "samplesBase64")) {
        const samples = readBase64Samples(body, at + 1, end - 1);
        if (samples) found.push({ run: arrayIndex(stack[1]), metric: arrayIndex(stack[3]), field: "samplesBase64", samples, start: at, end });
      }
      at = end - 1;
    } else if (byte === OPEN_OBJECT) {
      // Too deep for any input: parseJson refuses it (refuseDeepJson), and says so.
      if (stack.length === MAX_INPUT_DEPTH) return undefined;
      stack.push({ array: false, key: undefined, seen: undefined });
      expectKey = true;
    } else if (byte === OPEN_ARRAY) {
      // An array of numbers alone has no structure to follow: skipped whole, read only if it may be lifted.
      const end = flatArrayEnd(at);
      if (end === undefined) {
        if (stack.length === MAX_INPUT_DEPTH) return undefined;
        stack.push({ array: true, index: 0 });
      } else {
        if (end - at > LIFT_FROM * 2 && !expectKey && onLiftedPath(stack, "samples")) {
          const samples = readNumberArray(body, at, end);
          if (samples && samples.length >= LIFT_FROM)
            found.push({ run: arrayIndex(stack[1]), metric: arrayIndex(stack[3]), field: "samples", samples, start: at, end });
        }
        at = end - 1;
      }
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      stack.pop();
    } else if (byte === COMMA) {
      const top = stack.at(-1);
      if (top?.array) top.index++;
      else expectKey = true;
    }
  }
  return found;
}

/** Whether a value here is runs[r].metrics[m][field]. */
function onLiftedPath(stack: Frame[], field: (typeof LIFTED_FIELDS)[number]): boolean {
  if (stack.length !== PATH_KEYS.length + 1) return false;
  const metric = stack[PATH_KEYS.length] as Frame;
  if (metric.array || metric.key !== field) return false;
  return PATH_KEYS.every((key, depth) => {
    const frame = stack[depth] as Frame;
    return frame.array === (key === undefined) && (frame.array || frame.key === key);
  });
}

const arrayIndex = (frame: Frame | undefined) => (frame?.array ? frame.index : -1);

/** The index after the closing quote of the string opening at `at`, or -1 if it never closes. */
function stringEnd(body: Buffer, at: number): number {
  for (let quote = body.indexOf(QUOTE, at + 1); quote >= 0; quote = body.indexOf(QUOTE, quote + 1)) {
    let backslashes = 0;
    while (body[quote - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
  }
  return -1;
}

/** An object key's text, escapes decoded as JSON.parse would; undefined if it is not valid JSON. */
function keyText(body: Buffer, start: number, end: number): string | undefined {
  const raw = body.toString("utf8", start + 1, end - 1);
  if (!raw.includes("\\")) return raw;
  try {
    return JSON.parse(body.toString("utf8", start, end)) as string;
  } catch {
    return undefined;
  }
}

const isDigit = (byte: number | undefined) => byte !== undefined && byte >= ZERO && byte <= NINE;
const isSpace = (byte: number | undefined) => byte === 32 || byte === 10 || byte === 13 || byte === 9;

/** 10^0 … 10^22: exact as doubles, so a product or quotient with one is rounded once. */
const POWERS_OF_TEN = Array.from({ length: 23 }, (_, exponent) => Number(`1e${exponent}`));

/**
 * The flat array between `at` and `end` as doubles; undefined if it holds anything but JSON
 * numbers, a number that is not finite, or mostly numbers only Number() reads (see the top).
 */
function readNumberArray(body: Buffer, at: number, end: number): Float64Array | undefined {
  let values = new Float64Array(LIFT_FROM);
  let count = 0;
  let slow = 0; // numbers read by Number(), not by the fast path
  let i = skipSpace(body, at + 1);
  if (body[i] === CLOSE_ARRAY) return undefined;
  for (;;) {
    // One JSON number: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
    const start = i;
    let byte = body[i];
    const negative = byte === MINUS;
    if (negative) byte = body[++i];
    if (!isDigit(byte)) return undefined;
    let mantissa = 0;
    let digits = 0; // significant digits in the mantissa
    let scale = 0; // digits after the point
    if (byte === ZERO) byte = body[++i];
    else
      do {
        mantissa = mantissa * 10 + (byte! - ZERO);
        digits++;
        byte = body[++i];
      } while (isDigit(byte));
    if (byte === DOT) {
      byte = body[++i];
      if (!isDigit(byte)) return undefined;
      do {
        mantissa = mantissa * 10 + (byte! - ZERO);
        if (mantissa !== 0) digits++;
        scale++;
        byte = body[++i];
      } while (isDigit(byte));
    }
    let exponent = 0;
    if (byte === E_LOWER || byte === E_UPPER) {
      byte = body[++i];
      const negativeExponent = byte === MINUS;
      if (negativeExponent || byte === PLUS) byte = body[++i];
      if (!isDigit(byte)) return undefined;
      do {
        // Past a few hundred the number is 0 or infinite whatever follows; Number() below decides.
        if (exponent < 100_000) exponent = exponent * 10 + (byte! - ZERO);
        byte = body[++i];
      } while (isDigit(byte));
      if (negativeExponent) exponent = -exponent;
    }
    const power = exponent - scale;
    let value: number;
    if (digits <= 15 && power >= 0 && power <= 22) value = mantissa * POWERS_OF_TEN[power]!;
    else if (digits <= 15 && power < 0 && power >= -22) value = mantissa / POWERS_OF_TEN[-power]!;
    else {
      value = Math.abs(Number(body.toString("latin1", start, i)));
      // Mostly numbers of 16 or 17 digits (a double printed whole): JSON.parse reads those faster.
      if (++slow > 256 && slow * 2 > count) return undefined;
    }
    if (!Number.isFinite(value)) return undefined;
    if (count === values.length) {
      const grown = new Float64Array(values.length * 2);
      grown.set(values);
      values = grown;
    }
    values[count++] = negative ? -value : value;

    i = skipSpace(body, i);
    if (body[i] === CLOSE_ARRAY) return i + 1 === end ? values.slice(0, count) : undefined;
    if (body[i] !== COMMA) return undefined;
    i = skipSpace(body, i + 1);
  }
}

/**
 * The float64 values of the base64 text between `from` and `to` (a string's contents, without its
 * quotes), decoded as prepare-metric.ts decodes `samplesBase64`; undefined unless JSON.parse would
 * give that very text. Node's decoder skips what is not base64 (and reads the URL-safe alphabet as
 * the text's decoding would too), so a padded text that decodes to its full length was base64
 * throughout: no escape, no control character, nothing but ASCII. Anything else, or a length that
 * is not whole float64 values, stays in the body for JSON.parse and prepare-metric.ts to read and,
 * if need be, refuse as before.
 */
function readBase64Samples(body: Buffer, from: number, to: number): Float64Array | undefined {
  const text = body.subarray(from, to);
  if (text.length % 4 !== 0 || text.includes(BACKSLASH)) return undefined;
  const padding = text[text.length - 1] === EQUALS ? (text[text.length - 2] === EQUALS ? 2 : 1) : 0;
  const bytes = Buffer.from(text.toString("latin1"), "base64");
  if (bytes.length !== ((text.length - padding) * 3) >>> 2) return undefined;
  return float64FromBytes(bytes);
}

/**
 * For the array opening at `at`: after its "]" if it holds no string, object or array, else
 * undefined. Each of the four bytes is looked for with indexOf (a memchr, far faster than looking
 * at every byte here) and its place kept until the scan passes it, as the scan only moves
 * forward: each byte of the body is searched once, however many arrays a hostile body opens.
 */
function flatArrayEnds(body: Buffer): (at: number) => number | undefined {
  const next = (byte: number) => {
    let found = -1; // the first place of `byte` at or after the last `from` (body.length: none)
    return (from: number) => {
      if (found < from) {
        const place = body.indexOf(byte, from);
        found = place < 0 ? body.length : place;
      }
      return found;
    };
  };
  const [close, quote, openArray, openObject] = [CLOSE_ARRAY, QUOTE, OPEN_ARRAY, OPEN_OBJECT].map(next) as [Next, Next, Next, Next];
  return (at) => {
    const end = close(at + 1);
    if (end === body.length || quote(at + 1) < end || openArray(at + 1) < end || openObject(at + 1) < end) return undefined;
    return end + 1;
  };
}

type Next = (from: number) => number;

function skipSpace(body: Buffer, at: number): number {
  let i = at;
  while (isSpace(body[i])) i++;
  return i;
}
