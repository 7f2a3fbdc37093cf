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
//
// The readers read an experiment of fixed size (seeded before the load), so their latency and the
// server's memory stay comparable from the first second to the last; the uploads go elsewhere.
//
// Run: npx tsx bench/load.ts   (BENCH_SECONDS=10 for a short run, BENCH_READERS=0 for the uploads
// alone, BENCH_RAW_SECONDS for the reference's; BENCH_PORT moves the server, its PostgreSQL takes
// the port + 1000)
import os from "node:os";
import autocannon from "autocannon";
import { mulberry32 } from "../server/stats/prng";
import { importUpload, resultsUpload, UPLOAD_EXPERIMENTS } from "./lib/load-bodies";
import { Ledger, resendUnanswered, uploaderRequest } from "./lib/load-ledger";
import { storedRuns, storedWithoutAnswer, verifyLoad, waitForQuiet, type Check } from "./lib/load-verify";
import { signInFirstOwner } from "./lib/owner-session";
import { sampleRss } from "./lib/rss-sampler";
import { rawUploadsPerSecond } from "./lib/raw-reference";
import { postgresCpuSeconds, startBenchServerWithKey, type BenchServer } from "./lib/server";

const NAME = "load";
// comparison.ts uses 3220, history.ts 3230, upload-1m.ts 3210.
const PORT = Number(process.env.BENCH_PORT ?? 3400);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const UPLOADERS = { results: 50, imports: 50 };
// BENCH_READERS=0 leaves the readers out, to see the uploads' own cost.
const READERS = process.env.BENCH_READERS === "0" ? { comparison: 0, page: 0 } : { comparison: 8, page: 4 };
/** A client that waits longer than this gives up on the answer (the upload may still be stored). */
const TIMEOUT_SECONDS = 30;
const READ_EXPERIMENT = "load-read";
const READ_UPLOADS = 30;
const RETRIES = { concurrent: 0.1, later: 0.1 };
/** How long the raw-SQL reference stores uploads after the load (bench/lib/raw-reference.ts). */
const RAW_SECONDS = Number(process.env.BENCH_RAW_SECONDS ?? 15);

let server: BenchServer | undefined;
let stopping: Promise<void> | undefined;
const stop = () => (stopping ??= (async () => void (server && (await server.stop())))());
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void stop().finally(() => process.exit(130)));

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
const checks: Check[] = [];

try {
  const up = await startBenchServerWithKey(NAME, PORT);
  server = up.server;
  const {
    databaseUrl,
    auth,
    server: { baseUrl },
  } = up;
  const cookie = await signInFirstOwner(baseUrl, databaseUrl);

  // The experiment the readers read: 30 uploads of two runs each (baseline and three candidates).
  for (let i = 0; i < READ_UPLOADS; i++) {
    const upload = resultsUpload(1_000_000 + i, READ_EXPERIMENT);
    const response = await fetch(`${baseUrl}${upload.path}`, { method: "POST", headers: { ...auth, "Content-Type": upload.contentType }, body: upload.body });
    if (response.status !== 201) throw new Error(`seeding ${READ_EXPERIMENT}: ${response.status} ${await response.text()}`);
  }
  const comparisonPath = `/api/v1/experiments/${READ_EXPERIMENT}/comparison`;
  const pagePath = `/p/bench/e/${READ_EXPERIMENT}`;
  const page = await fetch(`${baseUrl}${pagePath}`, { headers: { Cookie: cookie }, redirect: "manual" });
  if (page.status !== 200 || !(await page.text()).includes(READ_EXPERIMENT))
    throw new Error(`the experiment page answered ${page.status} to the signed-in owner`);

  const ledger = new Ledger();
  const random = mulberry32(7);
  const uploader = (name: string, make: typeof resultsUpload) =>
    uploaderRequest({ name, make, ledger, headers: auth, concurrentRetries: RETRIES.concurrent, laterRetries: RETRIES.later, random });
  const load = (title: string, connections: number, request: autocannon.Request, headers: Record<string, string> = {}) =>
    autocannon({ title, url: baseUrl, connections, duration: SECONDS, timeout: TIMEOUT_SECONDS, headers, requests: [request] });

  console.log(
    `\n${SECONDS} s: ${UPLOADERS.results} + ${UPLOADERS.imports} uploaders, ${READERS.comparison} comparison readers, ${READERS.page} page readers; ` +
      `server processes: VERSUS_WORKERS=${process.env.VERSUS_WORKERS || `unset (one per core: ${os.availableParallelism()})`} (CPU summed over them; RSS of one)`,
  );
  const rss = sampleRss(server.serverPid);
  const cpuBefore = { server: server.serverCpuSeconds(), postgres: postgresCpuSeconds(server.dataDir), bench: process.cpuUsage() };
  const results = await Promise.all([
    load("POST /api/v1/results", UPLOADERS.results, uploader("results", resultsUpload)),
    load("POST /api/v1/imports", UPLOADERS.imports, uploader("imports", importUpload)),
    ...(READERS.comparison ? [load("GET comparison (REST)", READERS.comparison, { method: "GET", path: comparisonPath }, auth)] : []),
    ...(READERS.page ? [load("GET experiment page", READERS.page, { method: "GET", path: pagePath }, { Cookie: cookie })] : []),
  ]);
  const memory = rss.stop();
  const cpu = {
    server: server.serverCpuSeconds() - cpuBefore.server,
    postgres: postgresCpuSeconds(server.dataDir) - cpuBefore.postgres,
    bench: (({ user, system }) => (user + system) / 1e6)(process.cpuUsage(cpuBefore.bench)),
  };
  const loadAverage = os.loadavg()[0] as number;

  console.log(
    `\n${"endpoint".padEnd(24)} ${"conns".padStart(5)} ${"answers".padStart(8)} ${"req/s".padStart(7)} ${"p50".padStart(8)} ${"p99".padStart(8)}  answers by status; socket errors`,
  );
  for (const result of results) {
    const statuses = Object.entries(result.statusCodeStats ?? {})
      .map(([status, { count }]) => `${status}: ${count}`)
      .join(", ");
    console.log(
      `${(result.title ?? "").padEnd(24)} ${String(result.connections).padStart(5)} ${String(result.requests.total).padStart(8)} ${(result.requests.total / result.duration).toFixed(1).padStart(7)} ` +
        `${`${result.latency.p50} ms`.padStart(8)} ${`${result.latency.p99} ms`.padStart(8)}  ${statuses || "none"}; ${result.errors} errors (${result.timeouts} timeouts)`,
    );
  }
  // CPU time stays put when other work shares the machine; requests per second do not.
  const answered = results.reduce((n, r) => n + r.requests.total, 0);
  console.log(
    `\nCPU over the load: server ${cpu.server.toFixed(1)} s, PostgreSQL ${cpu.postgres.toFixed(1)} s, this script (autocannon, bodies) ${cpu.bench.toFixed(1)} s; ` +
      `server + PostgreSQL per answered request ${(((cpu.server + cpu.postgres) / answered) * 1000).toFixed(1)} ms. ` +
      `Machine: ${os.cpus().length} cores, load average ${loadAverage.toFixed(1)} at the end (other work shares it)`,
  );
  const bounded = memory.secondHalfPeak <= memory.firstHalfPeak * 1.1 + 32 * 2 ** 20;
  console.log(
    `\nserver RSS: start ${mb(memory.start)}, peak ${mb(memory.peak)}, end ${mb(memory.end)}; peak of the first half ${mb(memory.firstHalfPeak)}, of the second ${mb(memory.secondHalfPeak)} ` +
      `(bounded: second ≤ first + 10% + 32 MB ${bounded ? "✓" : "✗"}; ${memory.samples} samples)`,
  );
  console.log(`  peak of each tenth of the load: ${memory.tenths.map((bytes) => (bytes / 2 ** 20).toFixed(0)).join(" ")} MB`);

  const fiveHundreds = results.reduce((n, r) => n + r["5xx"], 0);
  checks.push({ ok: fiveHundreds === 0, label: "no 5xx answer", detail: `${fiveHundreds}` });
  const refusedUploads = results.slice(0, 2).reduce((n, r) => n + r["4xx"], 0);
  checks.push({ ok: refusedUploads === 0, label: "no upload refused (4xx)", detail: `${refusedUploads}` });
  const badReads = results.slice(2).reduce((n, r) => n + r.requests.total - r["2xx"], 0);
  checks.push({ ok: badReads === 0, label: "every read answered 2xx", detail: `${badReads} did not` });

  // Uploads whose answer never came: stored or not? Then each is sent again, as its client would.
  await waitForQuiet(databaseUrl, UPLOAD_EXPERIMENTS);
  const sent = [...ledger.uploads.values()];
  const requests = sent.reduce((n, r) => n + r.sends, 0);
  const acknowledged = ledger.acknowledged().length;
  const lostAnswers = storedWithoutAnswer(await storedRuns(databaseUrl, UPLOAD_EXPERIMENTS), ledger);
  const lostStored = [...lostAnswers.values()].filter((ids) => ids.length > 0);
  await resendUnanswered(baseUrl, auth, ledger);
  const stored = await storedRuns(databaseUrl, UPLOAD_EXPERIMENTS);
  checks.push(...verifyLoad(stored, ledger, lostAnswers));
  console.log(
    `\n${sent.length} uploads sent (${requests} requests with retries), ${acknowledged} acknowledged during the load; ` +
      `${lostAnswers.size} never answered (timed out, or in flight when the load stopped), of which ${lostStored.length} were stored ` +
      `(${lostStored.reduce((n, ids) => n + ids.length, 0)} runs); each was sent again afterwards. ${stored.runs.length} runs stored in all`,
  );
  for (const check of checks) console.log(`  ${check.ok ? "✓" : "✗"} ${check.label}: ${check.detail}`);

  // Per acknowledged upload: everything the server and PostgreSQL spent over the load (the
  // readers' share included), and beside it the raw-SQL reference storing the same kind of rows.
  const uploadsPerSecond = acknowledged / SECONDS;
  console.log(
    `\nserver + PostgreSQL CPU per acknowledged upload: ${(((cpu.server + cpu.postgres) / acknowledged) * 1000).toFixed(1)} ms ` +
      `(server ${((cpu.server / acknowledged) * 1000).toFixed(1)} ms, PostgreSQL ${((cpu.postgres / acknowledged) * 1000).toFixed(1)} ms; readers' work included); ` +
      `${uploadsPerSecond.toFixed(1)} acknowledged uploads/s`,
  );
  const raw = await rawUploadsPerSecond({
    databaseUrl,
    projectSlug: "bench",
    makes: [resultsUpload, importUpload],
    uploaders: UPLOADERS.results + UPLOADERS.imports,
    seconds: RAW_SECONDS,
  });
  console.log(
    `raw-SQL reference (same rows, ${UPLOADERS.results + UPLOADERS.imports} uploaders, a pool of 10, ${RAW_SECONDS} s, server idle): ${raw.uploadsPerSecond.toFixed(1)} uploads/s; ` +
      `Versus ÷ raw = ${(uploadsPerSecond / raw.uploadsPerSecond).toFixed(2)}`,
  );
} finally {
  await stop();
}
if (checks.some((check) => !check.ok)) process.exitCode = 1;
