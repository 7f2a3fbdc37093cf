// Checks every importer makes on a raw body before its own parsing, so that an empty body,
// malformed JSON or another tool's output gets a message that says what was found.
import type { z } from "zod";
import { ImportFormatError } from "./types";

/** Throws for an empty or whitespace-only body; returns the body without a leading BOM. */
export function requireText(format: string, body: string): string {
  const text = body.startsWith("\uFEFF") ? body.slice(1) : body;
  if (text.trim() === "") throw new ImportFormatError(format, "the body is empty");
  return text;
}

/**
 * Names the tool whose output this looks like, from marks each tool always prints, so a
 * wrong-format message can say "this looks like wrk output". Undefined when nothing matches.
 */
export function guessTool(body: string): string | undefined {
  const head = body.slice(0, 4096);
  const marks: [string, RegExp][] = [
    ["wrk", /^Running \S+ test @ /m],
    ["k6 CSV (--out csv)", /^metric_name,timestamp,metric_value\b/m],
    ["nGrinder CSV report", /^DateTime,(vuser,)?Tests,Errors,/m],
    ["k6 summary (--summary-export)", /"root_group"\s*:/],
    ["Criterion sample.json", /"sampling_mode"\s*:/],
    ["Criterion estimates.json", /"median_abs_dev"\s*:/],
    ["JMH JSON", /"jmhVersion"\s*:/],
    ["hyperfine JSON", /"results"\s*:\s*\[\s*\{\s*"command"/],
    ["pytest-benchmark JSON", /"machine_info"\s*:/],
    ["Google Benchmark JSON", /"context"\s*:\s*\{[^}]*"library_build_type"|"num_cpus"\s*:/],
    ["go test -bench output", /^Benchmark\S+\s+\d+\s+[\d.]+ ns\/op/m],
  ];
  return marks.find(([, mark]) => mark.test(head))?.[0];
}

/** "(this looks like X output)" when a guess exists, for appending to a message. */
export function foreignHint(body: string): string {
  const tool = guessTool(body);
  return tool ? ` (this looks like ${tool})` : "";
}

/** The body's first line, shortened, to quote in a message. */
export function firstLine(body: string): string {
  const line = body.trimStart().split(/\r?\n/, 1)[0] ?? "";
  return line.length > 60 ? `${line.slice(0, 57)}…` : line;
}

/** Parses a JSON body, or throws a message naming what the body is instead. */
export function parseJsonBody(format: string, body: string): unknown {
  const text = requireText(format, body).trim();
  if (!text.startsWith("{") && !text.startsWith("[")) {
    throw new ImportFormatError(format, `expected a JSON document but the body starts with "${firstLine(text)}"${foreignHint(text)}`);
  }
  return parseJsonText(format, text);
}

/**
 * JSON.parse with messages a person can act on: where (line and column, not a character
 * offset), a bare NaN or Infinity named as such, a document that stops mid-value called
 * truncated, and a number beyond the float64 range refused (JSON.parse reads 1e400 as Infinity
 * without a word).
 */
export function parseJsonText(format: string, text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ImportFormatError(format, `malformed JSON: ${jsonProblem(text, error instanceof Error ? error.message : String(error))}`);
  }
  const overflow = nonFinitePath(value);
  if (overflow !== undefined) {
    throw new ImportFormatError(
      format,
      `${overflow || "(top level)"}: a number beyond the range of a 64-bit float (±1.8e308, e.g. 1e400) is not a finite number`,
    );
  }
  return value;
}

// NaN, Infinity or -Infinity where a JSON value stands (Python's json module writes them).
const BARE_NON_FINITE = /[:,[]\s*(-?(?:NaN|Infinity))(?=\s*[,}\]])/;

function jsonProblem(text: string, reason: string): string {
  const bare = BARE_NON_FINITE.exec(text);
  if (bare) {
    const at = bare.index + bare[0].length - (bare[1] as string).length;
    return `${bare[1]} at ${lineAndColumn(text, at)}: JSON has no NaN or Infinity, and every figure must be a finite number`;
  }
  const position = /at position (\d+)/.exec(reason);
  const offset = position ? Number(position[1]) : undefined;
  const plain = reason.replace(/ in JSON at position \d+.*$/s, "").replace(/, "[^]*" is not valid JSON$/, "");
  // V8 reports a document that stops mid-value at its very end (or as "Unexpected end").
  if (/end of JSON input/.test(reason) || (offset !== undefined && offset >= text.length)) {
    return `the document ends in the middle of a value (${lineAndColumn(text, text.length)}): the file looks truncated`;
  }
  return offset === undefined ? plain : `${plain} at ${lineAndColumn(text, offset)}`;
}

/** "line 3, column 14" of a character offset, both counted from 1. */
export function lineAndColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  return `line ${line}, column ${offset - before.lastIndexOf("\n")}`;
}

/** The path ("0.primaryMetric.rawData.0.0") of the first non-finite number in a parsed document. */
function nonFinitePath(root: unknown): string | undefined {
  const stack: { value: unknown; path: string }[] = [{ value: root, path: "" }];
  while (stack.length > 0) {
    const { value, path } = stack.pop() as { value: unknown; path: string };
    if (typeof value === "number") {
      if (!Number.isFinite(value)) return path;
    } else if (value && typeof value === "object") {
      // Reversed onto the stack, so the first offender in document order is found first.
      const entries = Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i] as [string, unknown];
        stack.push({ value: child, path: path ? `${path}.${key}` : key });
      }
    }
  }
  return undefined;
}

/** The first few Zod issues as "path: message", for an ImportFormatError message. */
export function describeIssues(error: z.ZodError): string {
  const shown = error.issues.slice(0, 3).map((issue) => {
    const where = issue.path.length > 0 ? issue.path.map(String).join(".") : "(top level)";
    return `${where}: ${issue.message}`;
  });
  const more = error.issues.length > 3 ? ` (and ${error.issues.length - 3} more)` : "";
  return shown.join("; ") + more;
}
