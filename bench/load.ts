// Load benchmark: 100 concurrent uploaders for 60 s — half POST /api/v1/results (Versus's JSON,
// two runs of 100–1000 samples per metric), half POST /api/v1/imports (`go test -bench` text and
// hyperfine JSON, alternately) — while readers load an experiment's comparison
// (GET /api/v1/experiments/{slug}/comparison) and its page (/p/{project}/e/{slug}, signed in).
// autocannon drives all four from this process, one request in flight per connection. Every
// upload has its own Idempotency-Key; 10% are sent twice at once and 10% of the acknowledged ones
// again later, as a client retries after a timeout.
//
// Prints throughput, p50/p99 latency and answers by status per endpoint, and the server's memory
// (start, peak, end, and each half's peak: a server that keeps growing under a steady load has a
// second-half peak well above the first's). Then checks the database against every acknowledged
// answer (bench/lib/load-verify.ts): no loss, nothing stored twice (retries included), no
// repetition twice. An upload whose answer never came (its client timed out, or it was in flight
// when the load stopped) is counted apart: stored whole or not at all, and sent again afterwards
// with its key, as its client would, it must replay what was stored. Those checks and "no 5xx"
// print ✓/✗ and make the exit status non-zero; the figures assert nothing.
//
// Last, server + PostgreSQL CPU per acknowledged upload, and a raw-SQL reference: the same kind of
// uploads' rows stored by a plain node-postgres loop over a pool as large as the server's
// (bench/lib/raw-reference.ts), printed as Versus's acknowledged uploads/s ÷ the reference's.
// The readers' work is in the CPU per upload, and they took Versus's uploads CPU the reference did
// not share; so each figure is printed twice: as measured, and with the readers accounted for.
// The reads are run again at the rates the load answered them (bench/lib/readers-at-rates.ts):
// alone, to price a read and take the load's reads out of its CPU; and beside the reference, for
// a ratio of uploads stored on a machine doing the same reads. Last, Versus's floor: the
// reference's CPU per upload plus what it is handed ready, each body read and its rows prepared
// (summaries, histograms, compressed samples), timed in this process on warm code.
//
// The readers read an experiment of fixed size (seeded before the load), so their latency and the
// server's memory stay comparable from the first second to the last; the uploads go elsewhere.
//
// The whole load runs twice, against a fresh server each time: with one server process
// (VERSUS_WORKERS=1) and with two (=2), and a last table sets their answers/s per endpoint, p50s,
// uploads/s, CPU per acknowledged upload and memory side by side (the raw-SQL reference runs only
// after the last load). The server code is in bench/lib/load-run.ts.
//
// Run: npx tsx bench/load.ts   (BENCH_SECONDS=10 for a short run, BENCH_READERS=0 for the uploads
// alone or =C,P for C comparison and P page readers, BENCH_RAW_SECONDS for the reference's,
// BENCH_READERS_ALONE_SECONDS for the reads priced alone, BENCH_WARMUP_SECONDS for the same load
// run first and not measured (0 by default; a server's code is still being compiled by V8 for
// several hundred page views after it starts),
// BENCH_WORKERS=1 or e.g. 1,2,4 for other server process counts; BENCH_PORT moves the server, its
// PostgreSQL takes the port + 1000)
import { loadRun, type LoadRunFigures } from "./lib/load-run";
import type { BenchServer } from "./lib/server";

// comparison.ts uses 3220, history.ts 3230, upload-1m.ts 3210.
const PORT = Number(process.env.BENCH_PORT ?? 3400);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
// BENCH_READERS=0 leaves the readers out, to see the uploads' own cost; "8,0" or "0,4" (comparison
// readers, page readers) keeps one kind, to see which of them costs the uploads what.
const READERS = readersOf(process.env.BENCH_READERS);
/** How long the raw-SQL reference stores uploads after the last load (bench/lib/raw-reference.ts). */
const RAW_SECONDS = Number(process.env.BENCH_RAW_SECONDS ?? 15);
/** How long the readers read alone after each load, at its rates, to price a read (bench/lib/load-run.ts). */
const READERS_ALONE_SECONDS = Number(process.env.BENCH_READERS_ALONE_SECONDS ?? 10);
/** How long the same load runs first, not measured (bench/lib/load-run.ts). */
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 0);
if (!Number.isFinite(WARMUP_SECONDS) || WARMUP_SECONDS < 0)
  throw new Error(`BENCH_WARMUP_SECONDS: seconds, 0 or more, not "${process.env.BENCH_WARMUP_SECONDS}"`);
const WORKERS = (process.env.BENCH_WORKERS ?? "1,2").split(",").map(Number);
if (WORKERS.some((n) => !Number.isInteger(n) || n < 1))
  throw new Error(`BENCH_WORKERS: whole numbers from 1, separated by commas, not "${process.env.BENCH_WORKERS}"`);

let server: BenchServer | undefined;
let stopping: Promise<void> | undefined;
const stop = () => (stopping ??= (async () => void (server && (await server.stop())))());
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void stop().finally(() => process.exit(130)));

const runs: LoadRunFigures[] = [];
for (const [index, workers] of WORKERS.entries()) {
  runs.push(
    await loadRun({
      name: "load",
      port: PORT,
      workers,
      seconds: SECONDS,
      readers: READERS,
      rawSeconds: index === WORKERS.length - 1 ? RAW_SECONDS : 0,
      readersAloneSeconds: READERS_ALONE_SECONDS,
      warmupSeconds: WARMUP_SECONDS,
      started: (started) => (server = started),
    }),
  );
  server = undefined;
}

// Side by side: what the second server process bought (figures, never asserted).
const raw = runs.at(-1)?.rawUploadsPerSecond ?? null;
const rawBesideReads = runs.at(-1)?.rawBesideReadsPerSecond ?? null;
const column = (text: string) => text.padStart(18);
const row = (label: string, cell: (run: LoadRunFigures) => string) => console.log(`${label.padEnd(46)}${runs.map((run) => column(cell(run))).join("")}`);
console.log("");
row("", (run) => `VERSUS_WORKERS=${run.workers}`);
for (const [i, endpoint] of (runs[0]?.endpoints ?? []).entries()) {
  row(`${endpoint.title} answers/s, p50`, (run) => {
    const figures = run.endpoints[i];
    return figures ? `${figures.perSecond.toFixed(1)}/s, ${figures.p50} ms` : "";
  });
}
row("acknowledged uploads/s", (run) => run.uploadsPerSecond.toFixed(1));
row(
  "CPU per acknowledged upload: server + PostgreSQL",
  (run) => `${(run.cpuPerUpload.server * 1000).toFixed(1)} + ${(run.cpuPerUpload.postgres * 1000).toFixed(1)} ms`,
);
if (runs.some((run) => run.uploadsOwnCpu))
  row("  the same without the reads (priced alone)", (run) =>
    run.uploadsOwnCpu ? `${(run.uploadsOwnCpu.server * 1000).toFixed(1)} + ${(run.uploadsOwnCpu.postgres * 1000).toFixed(1)} ms` : "",
  );
const floor = runs.at(-1)?.floorCpuPerUpload ?? null;
if (floor) row("  floor: raw SQL's, plus reading and preparing", () => `${(floor * 1000).toFixed(1)} ms`);
row("server RSS peak (one process)", (run) => `${(run.rssPeak / 2 ** 20).toFixed(0)} MB`);
if (raw) row(`Versus ÷ raw SQL (${raw.toFixed(1)} uploads/s)`, (run) => (run.uploadsPerSecond / raw).toFixed(2));
// The reference read beside the last run's reads, at that run's rates: a ratio for that run only.
if (rawBesideReads)
  row(`  ÷ raw SQL beside the same reads (${rawBesideReads.toFixed(1)}/s)`, (run) =>
    run === runs.at(-1) ? (run.uploadsPerSecond / rawBesideReads).toFixed(2) : "",
  );
row("correctness checks", (run) => (run.checks.every((check) => check.ok) ? "all ✓" : `${run.checks.filter((check) => !check.ok).length} ✗`));

if (runs.some((run) => run.checks.some((check) => !check.ok))) process.exitCode = 1;

function readersOf(setting: string | undefined): { comparison: number; page: number } {
  if (setting === undefined || setting === "") return { comparison: 8, page: 4 };
  if (setting === "0") return { comparison: 0, page: 0 };
  const counts = /^(\d+),(\d+)$/.exec(setting);
  if (!counts) throw new Error(`BENCH_READERS: 0, or two whole numbers "comparison,page" such as 8,4, not "${setting}"`);
  return { comparison: Number(counts[1]), page: Number(counts[2]) };
}
