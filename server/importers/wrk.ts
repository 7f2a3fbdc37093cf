// Importer for wrk's printout (wrk --latency …), e.g.
//
//   Running 2s test @ http://127.0.0.1:18481/
//     2 threads and 10 connections
//     Thread Stats   Avg      Stdev     Max   +/- Stdev
//       Latency     2.27ms    4.20ms  69.45ms   91.24%
//       Req/Sec     5.38k     3.24k   11.98k    57.50%
//     Latency Distribution
//        50%  368.00us
//        …
//     21532 requests in 2.02s, 24.09MB read
//     Socket errors: connect 0, read 34, write 19296, timeout 0     (only when there were any)
//     Non-2xx or 3xx responses: 430                                  (only when there were any)
//   Requests/sec:  10659.90
//   Transfer/sec:     11.92MB
//
// Several printouts one after another (e.g. `for i in 1 2 3; do wrk …; done > out.txt`) become
// repetitions, one benchmark per URL. Metrics per repetition:
//   latency           ms, lower: wrk's avg/stdev/max and the distribution's 50/90/99% (n = the
//                     request count; 75% has no field in ImportedSummary, so the label names it)
//   requests_per_sec  req/s, higher: the run's value (wrk's rate over the whole run)
//   transfer_per_sec  B/s, higher, the run's value (wrk's KB/MB/GB are powers of 1024)
//   errors            count, lower: socket errors (connect+read+write+timeout) + non-2xx/3xx
import { foreignHint, firstLine, requireText } from "./body-checks";
import { requireCount, requireNonNegative } from "./numeric-cells";
import type { ImportedBenchmark, ImportedMetric, ImportedRepetition, ImportedSummary, Importer } from "./types";
import { ImportFormatError } from "./types";
import { wrkBytes, wrkCount, wrkTimeMs } from "./wrk-units";

const FORMAT = "wrk";

interface WrkRun {
  url: string;
  repetition: ImportedRepetition;
}

function required(block: string, pattern: RegExp, what: string, where: string): RegExpExecArray {
  const match = pattern.exec(block);
  if (!match) throw new ImportFormatError(FORMAT, `no ${what} in ${where}${foreignHint(block)}`);
  return match;
}

/** The integer counts wrk prints ("21532", "34"); a minus sign or fraction is an error. */
function count(token: string, what: string, where: string): number {
  return requireCount(FORMAT, wrkCount(token, where), what, where, token);
}

const PERCENTILE_FIELDS = new Map<number, "p50" | "p90" | "p95" | "p99" | "p999">([
  [50, "p50"],
  [90, "p90"],
  [95, "p95"],
  [99, "p99"],
  [99.9, "p999"],
]);

function latencyMetric(block: string, requests: number, where: string): ImportedMetric {
  // The Thread Stats row (the "Latency Distribution" heading also starts with "Latency").
  const row = required(block, /^\s*Latency\s+(?!Distribution)(\S+)\s+(\S+)\s+(\S+)/m, 'Thread Stats "Latency" row', where);
  const latency = (token: string | undefined) => requireNonNegative(FORMAT, wrkTimeMs(token ?? "", where), "latency", where);
  const summary: ImportedSummary = { n: requests, mean: latency(row[1]), sd: latency(row[2]), max: latency(row[3]) };
  const unmapped: string[] = [];
  const distribution = /Latency Distribution[ \t]*\n((?:[ \t]*[\d.]+%[ \t]+\S+[ \t]*(?:\n|$))+)/.exec(block)?.[1] ?? "";
  for (const line of distribution.matchAll(/^\s*([\d.]+)%\s+(\S+)/gm)) {
    const ms = latency(line[2]);
    const field = PERCENTILE_FIELDS.get(Number(line[1]));
    if (field) summary[field] = ms;
    else unmapped.push(`p${line[1]} = ${ms} ms`);
  }
  // ImportedSummary has no p75: keep wrk's 75% in the label rather than drop it.
  const label = unmapped.length > 0 ? `Latency (wrk; ${unmapped.join(", ")})` : "Latency (wrk)";
  return { key: "latency", unit: "ms", direction: "lower_is_better", label, summary };
}

function errorsMetric(block: string, where: string): ImportedMetric {
  const parts: string[] = [];
  let total = 0;
  const socket = /Socket errors: connect (\S+), read (\S+), write (\S+), timeout (\S+)/.exec(block);
  if (socket) {
    const kinds = ["connect", "read", "write", "timeout"].map((name, i) => {
      const value = count(socket[i + 1] ?? "", `${name} error count`, where);
      total += value;
      return `${name} ${value}`;
    });
    parts.push(`socket: ${kinds.join(", ")}`);
  }
  const non2xx = /Non-2xx or 3xx responses: (\S+)/.exec(block);
  if (non2xx) {
    const value = count(non2xx[1] ?? "", "non-2xx/3xx response count", where);
    total += value;
    parts.push(`non-2xx/3xx: ${value}`);
  }
  const label = parts.length > 0 ? `Errors (${parts.join("; ")})` : "Errors";
  return { key: "errors", unit: "count", direction: "lower_is_better", label, summary: { n: 1, mean: total, sum: total } };
}

function parseRun(block: string, index: number): WrkRun {
  const where = index === 0 ? "the printout" : `printout ${index + 1}`;
  const header = /^Running (\S+) test @ (\S+)/m.exec(block);
  const setup = /^\s*(\d+) threads and (\d+) connections/m.exec(block);
  const totals = required(block, /^\s*(\S+) requests in (\S+), (\S+) read\s*$/m, '"N requests in Xs, Y read" line', where);
  const requests = count(totals[1] ?? "", "request count", where);
  const runtimeMs = requireNonNegative(FORMAT, wrkTimeMs(totals[2] ?? "", where), "duration", where);
  const bytesRead = requireNonNegative(FORMAT, wrkBytes(totals[3] ?? "", where), "byte count", where);
  const rps = required(block, /^Requests\/sec:\s*(\S+)\s*$/m, '"Requests/sec:" line', where);
  const transfer = required(block, /^Transfer\/sec:\s*(\S+)\s*$/m, '"Transfer/sec:" line', where);
  const metrics: ImportedMetric[] = [
    latencyMetric(block, requests, where),
    {
      key: "requests_per_sec",
      unit: "req/s",
      direction: "higher_is_better",
      value: requireNonNegative(FORMAT, wrkCount(rps[1] ?? "", where), "Requests/sec", where),
    },
    {
      key: "transfer_per_sec",
      unit: "B/s",
      direction: "higher_is_better",
      value: requireNonNegative(FORMAT, wrkBytes(transfer[1] ?? "", where), "Transfer/sec", where),
    },
    errorsMetric(block, where),
  ];
  const environment: Record<string, unknown> = { requests, runtimeMs, bytesRead };
  if (header) environment.duration = header[1];
  if (setup) Object.assign(environment, { threads: Number(setup[1]), connections: Number(setup[2]) });
  return { url: header?.[2] ?? "wrk", repetition: { metrics, environment } };
}

export const importWrk: Importer = (body) => {
  const text = requireText(FORMAT, body).replace(/\r\n/g, "\n");
  if (/^\s*[[{]/.test(text)) {
    throw new ImportFormatError(FORMAT, `expected wrk's text printout but found JSON${foreignHint(text)}`);
  }
  // Anything with none of wrk's marks is another tool's; a printout missing some of them gets
  // the specific "no … line" message from parseRun.
  if (!/^Running \S+ test @ |requests in |^Requests\/sec:/m.test(text)) {
    throw new ImportFormatError(
      FORMAT,
      `expected wrk's printout ("N requests in …", "Requests/sec: …") but the body starts with "${firstLine(text)}"${foreignHint(text)}`,
    );
  }
  // Each "Running …" line starts one printout; text before the first one is ignored.
  const starts = [...text.matchAll(/^Running /gm)].map((m) => m.index);
  const blocks = starts.length === 0 ? [text] : starts.map((start, i) => text.slice(start, starts[i + 1]));
  const byUrl = new Map<string, ImportedBenchmark>();
  blocks.forEach((block, i) => {
    const run = parseRun(block, i);
    const benchmark = byUrl.get(run.url) ?? { name: run.url, repetitions: [] };
    benchmark.repetitions.push(run.repetition);
    byUrl.set(run.url, benchmark);
  });
  return { format: FORMAT, benchmarks: [...byUrl.values()] };
};
