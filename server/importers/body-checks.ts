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
  try {
    return JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ImportFormatError(format, `malformed JSON: ${reason}`);
  }
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
