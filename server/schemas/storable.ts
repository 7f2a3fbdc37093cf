// What no field can hold, whatever its schema says: PostgreSQL refuses U+0000 in text and jsonb
// alike, a lone UTF-16 surrogate is not Unicode (it has no UTF-8 form), and input nested deeper
// than any real request is refused before anything walks it recursively. Every input is checked
// here before its schema runs — REST in parseInput, tRPC in a middleware of every procedure — so a
// text field added later, or free-form JSON such as a run's environment, is covered without
// anyone remembering to.
import { AppError, type FieldIssue } from "../core/errors";

/** The deepest nesting of objects and arrays any input may have (a real upload needs about 8). */
export const MAX_INPUT_DEPTH = 32;

/** Enough to show what is wrong without echoing a whole hostile document back. */
const MAX_ISSUES = 20;

const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

export const nestingMessage = `nested deeper than ${MAX_INPUT_DEPTH} levels of objects and arrays (the limit for any input)`;

/** Why `text` cannot be stored, or undefined when it can. */
export function textProblem(text: string): string | undefined {
  if (text.includes("\u0000")) return "contains a NUL character (U+0000), which cannot be stored";
  // With the u flag a well-formed surrogate pair is one code point outside this range.
  const lone = LONE_SURROGATE.exec(text);
  if (lone) return `contains a lone UTF-16 surrogate (U+${lone[0].charCodeAt(0).toString(16).toUpperCase()}), which is not valid Unicode text`;
  return undefined;
}

/**
 * Refuses JSON text nested deeper than MAX_INPUT_DEPTH before it is parsed: a body of brackets
 * costs two bytes per level but an object per level once parsed. Only brackets, quotes and
 * backslashes matter, so a regular expression skips the numbers between them.
 */
export function refuseDeepJson(text: string): void {
  // Deeper than MAX_INPUT_DEPTH takes more opening brackets than that: a body with fewer (a run of
  // a million samples has a handful) needs no scan, which took 17 ms on one such body of 10 MB.
  if (fewerOpeningBracketsThan(text, MAX_INPUT_DEPTH + 1)) return;
  const structural = /[[\]{}"\\]/g;
  let depth = 0;
  let inString = false;
  for (let match = structural.exec(text); match; match = structural.exec(text)) {
    const char = match[0];
    if (inString) {
      if (char === "\\")
        structural.lastIndex++; // the escaped character, whatever it is
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === "[" || char === "{") {
      if (++depth > MAX_INPUT_DEPTH) throw new AppError("BAD_REQUEST", `The JSON body is ${nestingMessage}`);
    } else if (char === "]" || char === "}") depth--;
  }
}

/** Whether `text` holds fewer than `limit` of "[" and "{" together, in strings or not (indexOf scans fast). */
function fewerOpeningBracketsThan(text: string, limit: number): boolean {
  let count = 0;
  for (const bracket of ["[", "{"]) for (let at = text.indexOf(bracket); at >= 0; at = text.indexOf(bracket, at + 1)) if (++count >= limit) return false;
  return true;
}

const isPlainObject = (value: object): value is Record<string, unknown> => {
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
};

/**
 * The places in `input` that cannot be stored: text (values and object keys) with a NUL or a lone
 * surrogate, and objects or arrays nested deeper than MAX_INPUT_DEPTH. Walks without recursion,
 * so even a hostile depth cannot overflow the stack; skips numbers without allocating, so a
 * million samples cost one loop.
 */
export function unstorableIssues(input: unknown): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const pending: Pending[] = [{ value: input, path: [] }];
  while (pending.length > 0 && issues.length < MAX_ISSUES) {
    const { value, path, keyProblem } = pending.pop()!;
    if (keyProblem) issues.push({ path, message: `its name ${keyProblem}` });
    if (typeof value === "string") {
      const problem = textProblem(value);
      if (problem) issues.push({ path, message: problem });
      continue;
    }
    if (value === null || typeof value !== "object") continue;
    if (!Array.isArray(value) && !isPlainObject(value)) continue; // a Date from superjson, say
    if (path.length >= MAX_INPUT_DEPTH) {
      issues.push({ path, message: nestingMessage });
      continue;
    }
    // Pushed last-first, so that issues come out in document order.
    const children: Pending[] = [];
    if (Array.isArray(value)) {
      value.forEach((item, index) => {
        if (typeof item === "string" || (item !== null && typeof item === "object")) children.push({ value: item, path: [...path, index] });
      });
    } else {
      for (const [key, item] of Object.entries(value)) children.push({ value: item, path: [...path, key], keyProblem: textProblem(key) });
    }
    for (let i = children.length - 1; i >= 0; i--) pending.push(children[i]!);
  }
  return issues.slice(0, MAX_ISSUES);
}

interface Pending {
  value: unknown;
  path: (string | number)[];
  /** Set when the object key that leads here cannot be stored. */
  keyProblem?: string;
}
