// One run of bench/load.ts against a fresh server with a given number of server processes
// (VERSUS_WORKERS): seeds the experiment the readers read, runs the uploaders and readers, prints
// the run's figures and correctness checks, and hands back what the side-by-side table compares.
import os from "node:os";
import autocannon from "autocannon";
import { mulberry32 } from "../../server/stats/prng";
import { importUpload, resultsUpload, UPLOAD_EXPERIMENTS } from "./load-bodies";
import { Ledger, resendUnanswered, uploaderRequest } from "./load-ledger";
import { storedRuns, storedWithoutAnswer, verifyLoad, waitForQuiet, type Check } from "./load-verify";
import { signInFirstOwner } from "./owner-session";
import { sampleRss } from "./rss-sampler";
import { preparationCpuPerUpload, rawUploadsPerSecond } from "./raw-reference";
import { readersAtRates, type Reader, type ReadersAtRates } from "./readers-at-rates";
import { median } from "./timing";
import { samplePostgresCpu, type PostgresCpuByKind } from "./postgres-cpu-by-kind";
import { postgresCpuSeconds, startBenchServerWithKey, type BenchServer } from "./server";

export const UPLOADERS = { results: 50, imports: 50 };
/** A client that waits longer than this gives up on the answer (the upload may still be stored). */
const TIMEOUT_SECONDS = 30;
const READ_EXPERIMENT = "load-read";
const READ_UPLOADS = 30;
const RETRIES = { concurrent: 0.1, later: 0.1 };
/** The raw-SQL reference's rounds, alone and beside the reads in turn (its seconds shared among them). */
const RAW_ROUNDS = 3;

export interface LoadRunOptions {
  name: string;
  port: number;
  workers: number;
  seconds: number;
  readers: { comparison: number; page: number };
  /** Seconds of the raw-SQL reference after the load (0: none), alone and again beside the readers. */
  rawSeconds: number;
  /** Seconds the readers read alone after the load, at its rates, to price a read (0: not priced). */
  readersAloneSeconds: number;
  /** Seconds of the same load before the measured one, not measured. */
  warmupSeconds: number;
  /** Called with every server started, so a signal can stop it. */
  started(server: BenchServer): void;
}

export interface LoadRunFigures {
  workers: number;
  endpoints: { title: string; perSecond: number; p50: number; p99: number; timeouts: number }[];
  uploadsPerSecond: number;
  /** Server and PostgreSQL CPU seconds per acknowledged upload (the readers' work included). */
  cpuPerUpload: { server: number; postgres: number };
  /** The same with the readers' share taken out (their reads priced alone); null without readers. */
  uploadsOwnCpu: { server: number; postgres: number } | null;
  rssPeak: number;
  rawUploadsPerSecond: number | null;
  /** The raw-SQL reference's uploads/s beside the load's reads at the load's rates; null without readers. */
  rawBesideReadsPerSecond: number | null;
  /** The raw-SQL reference's CPU per upload plus reading and preparing an upload's rows; null without the reference. */
  floorCpuPerUpload: number | null;
  checks: Check[];
}

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;

export async function loadRun(options: LoadRunOptions): Promise<LoadRunFigures> {
  const { seconds, readers } = options;
  const up = await startBenchServerWithKey(options.name, options.port, { VERSUS_WORKERS: String(options.workers) });
  const server = up.server;
  options.started(server);
  try {
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
    const load = (title: string, connections: number, request: autocannon.Request, headers: Record<string, string> = {}, duration = seconds) =>
      autocannon({ title, url: baseUrl, connections, duration, timeout: TIMEOUT_SECONDS, headers, requests: [request] });

    console.log(
      `\nVERSUS_WORKERS=${options.workers}, ${seconds} s: ${UPLOADERS.results} + ${UPLOADERS.imports} uploaders, ${readers.comparison} comparison readers, ` +
        `${readers.page} page readers (server CPU summed over its processes; RSS of one)`,
    );
    const readerLoads = [
      { title: "GET comparison (REST)", connections: readers.comparison, path: comparisonPath, headers: auth },
      { title: "GET experiment page", connections: readers.page, path: pagePath, headers: { Cookie: cookie } },
    ].filter((reader) => reader.connections > 0);
    // One uploader of each kind for the warm-up and the load: the load's uploads follow on from the
    // warm-up's, so no content is sent twice under two keys.
    const uploaders = { results: uploader("results", resultsUpload), imports: uploader("imports", importUpload) };
    const everyLoad = (duration: number) =>
      Promise.all([
        load("POST /api/v1/results", UPLOADERS.results, uploaders.results, {}, duration),
        load("POST /api/v1/imports", UPLOADERS.imports, uploaders.imports, {}, duration),
        ...readerLoads.map((reader) => load(reader.title, reader.connections, { method: "GET", path: reader.path }, reader.headers, duration)),
      ]);
    if (options.warmupSeconds > 0) {
      const warm = await everyLoad(options.warmupSeconds);
      console.log(
        `warm-up (the same load for ${options.warmupSeconds} s, not measured): ${warm.map((r) => `${r.title} ${(r.requests.total / r.duration).toFixed(1)}/s`).join(", ")}`,
      );
    }
    const acknowledgedBefore = ledger.acknowledged().length;
    const rss = sampleRss(server.serverPid);
    const cpuBefore = { server: server.serverCpuSeconds(), bench: process.cpuUsage() };
    const postgresOverLoad = samplePostgresCpu(server.dataDir);
    const results = await everyLoad(seconds);
    const memory = rss.stop();
    const postgresByKind = postgresOverLoad.stop();
    const cpu = {
      server: server.serverCpuSeconds() - cpuBefore.server,
      postgres: postgresByKind.total,
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
        `server + PostgreSQL per answered request ${(((cpu.server + cpu.postgres) / answered) * 1000).toFixed(1)} ms. PostgreSQL's by kind: ${byKind(postgresByKind)}. ` +
        `Machine: ${os.cpus().length} cores, load average ${loadAverage.toFixed(1)} at the end (other work shares it)`,
    );
    const bounded = memory.secondHalfPeak <= memory.firstHalfPeak * 1.1 + 32 * 2 ** 20;
    console.log(
      `\nserver RSS: start ${mb(memory.start)}, peak ${mb(memory.peak)}, end ${mb(memory.end)}; peak of the first half ${mb(memory.firstHalfPeak)}, of the second ${mb(memory.secondHalfPeak)} ` +
        `(bounded: second ≤ first + 10% + 32 MB ${bounded ? "✓" : "✗"}; ${memory.samples} samples)`,
    );
    console.log(`  peak of each tenth of the load: ${memory.tenths.map((bytes) => (bytes / 2 ** 20).toFixed(0)).join(" ")} MB`);

    const checks: Check[] = [];
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
    const acknowledged = ledger.acknowledged().length - acknowledgedBefore;
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
    const uploadsPerSecond = acknowledged / seconds;
    const cpuPerUpload = { server: cpu.server / acknowledged, postgres: cpu.postgres / acknowledged };
    console.log(
      `\nserver + PostgreSQL CPU per acknowledged upload: ${((cpuPerUpload.server + cpuPerUpload.postgres) * 1000).toFixed(1)} ms ` +
        `(server ${(cpuPerUpload.server * 1000).toFixed(1)} ms, PostgreSQL ${(cpuPerUpload.postgres * 1000).toFixed(1)} ms; readers' work included); ` +
        `${uploadsPerSecond.toFixed(1)} acknowledged uploads/s`,
    );

    // The same without the readers' share: their reads again, alone, at the rates the load answered
    // them, priced per read and taken out (readers-at-rates.ts). A read alone meets warmer caches
    // and no collections of the uploads' garbage, so this prices the load's reads low if anything:
    // what remains is the uploads' own cost or a little above it.
    const readersAtLoadRates: Reader[] = readerLoads.map((reader, i) => ({ ...reader, perSecond: (results[2 + i]?.["2xx"] ?? 0) / seconds }));
    let uploadsOwnCpu: LoadRunFigures["uploadsOwnCpu"] = null;
    if (readersAtLoadRates.length > 0 && options.readersAloneSeconds > 0) {
      // PostgreSQL's share of a read is what its sessions spent: autovacuum and the writers may
      // still be at work the load left behind (postgres-cpu-by-kind.ts), which is not the reads'.
      const serverBefore = server.serverCpuSeconds();
      const postgresAlone = samplePostgresCpu(server.dataDir);
      const alone = await readersAtRates(baseUrl, readersAtLoadRates, options.readersAloneSeconds);
      const postgresAloneByKind = postgresAlone.stop();
      const spent = { server: server.serverCpuSeconds() - serverBefore, postgres: postgresAloneByKind.sessions };
      const loadReads = results.slice(2).reduce((n, r) => n + r["2xx"], 0);
      if (alone.answered > 0 && alone.failed === 0) {
        const share = { server: (spent.server / alone.answered) * loadReads, postgres: (spent.postgres / alone.answered) * loadReads };
        uploadsOwnCpu = { server: Math.max(0, cpu.server - share.server) / acknowledged, postgres: Math.max(0, cpu.postgres - share.postgres) / acknowledged };
        console.log(
          `the reads alone for ${options.readersAloneSeconds} s at the load's rates (${alone.perSecond.map((rate, i) => `${rate.toFixed(1)}/s of ${readersAtLoadRates[i]?.perSecond.toFixed(1)}`).join(", ")}): ` +
            `server + PostgreSQL's sessions ${(((spent.server + spent.postgres) / alone.answered) * 1000).toFixed(2)} ms per read (PostgreSQL's by kind meanwhile: ${byKind(postgresAloneByKind)}), so the load's ${loadReads} reads took ` +
            `${share.server.toFixed(1)} + ${share.postgres.toFixed(1)} s of its CPU; without them, per acknowledged upload: ` +
            `${((uploadsOwnCpu.server + uploadsOwnCpu.postgres) * 1000).toFixed(1)} ms (server ${(uploadsOwnCpu.server * 1000).toFixed(1)} ms, PostgreSQL ${(uploadsOwnCpu.postgres * 1000).toFixed(1)} ms)`,
        );
      } else console.log(`the reads alone: ${alone.answered} answered, ${alone.failed} failed; not priced`);
    }

    let raw: number | null = null;
    let rawBesideReads: number | null = null;
    let floor: number | null = null;
    if (options.rawSeconds > 0) {
      let rawCpu: { client: number; postgres: number };
      const reference = (seconds: number, beside?: (seconds: number) => Promise<unknown>) =>
        rawUploadsPerSecond({
          databaseUrl,
          projectSlug: "bench",
          makes: [resultsUpload, importUpload],
          uploaders: UPLOADERS.results + UPLOADERS.imports,
          seconds,
          postgresCpuSeconds: () => postgresCpuSeconds(server.dataDir),
          ...(beside ? { beside } : {}),
        });
      if (readersAtLoadRates.length === 0) {
        const alone = await reference(options.rawSeconds);
        raw = alone.uploadsPerSecond;
        rawCpu = alone.cpuPerUpload;
        // Its CPU per upload is part of Versus's floor (below): what storing these rows costs
        // PostgreSQL, and what the plainest client spends sending them.
        console.log(
          `raw-SQL reference (same rows, ${UPLOADERS.results + UPLOADERS.imports} uploaders, a pool of 10, ${options.rawSeconds} s, server idle): ${raw.toFixed(1)} uploads/s; ` +
            `Versus ÷ raw = ${(uploadsPerSecond / raw).toFixed(2)}; its CPU per upload: client ${(alone.cpuPerUpload.client * 1000).toFixed(1)} ms, ` +
            `PostgreSQL ${(alone.cpuPerUpload.postgres * 1000).toFixed(1)} ms`,
        );
      } else {
        // Versus's uploads shared the machine with the readers; so does the reference beside the
        // same reads at the same rates, for a ratio of like with like. Alone and beside them in
        // turn, RAW_ROUNDS times, medians: the tables grow and the machine's speed drifts (one
        // 15 s stretch beside the reads, after the alone one, stored 172 uploads/s after a 60 s
        // load and 493 after a 20 s one; rounds of 5 s in turn, 211-377 within one run).
        const alone: Awaited<ReturnType<typeof reference>>[] = [];
        const beside: number[] = [];
        let failedReads = 0;
        const seconds = options.rawSeconds / RAW_ROUNDS;
        for (let round = 0; round < RAW_ROUNDS; round++) {
          alone.push(await reference(seconds));
          const seen: { reads?: ReadersAtRates } = {};
          beside.push((await reference(seconds, async (length) => (seen.reads = await readersAtRates(baseUrl, readersAtLoadRates, length)))).uploadsPerSecond);
          failedReads += seen.reads?.failed ?? 0;
        }
        raw = median(alone.map((run) => run.uploadsPerSecond));
        rawBesideReads = median(beside);
        rawCpu = { client: median(alone.map((run) => run.cpuPerUpload.client)), postgres: median(alone.map((run) => run.cpuPerUpload.postgres)) };
        const list = (values: number[]) => values.map((value) => value.toFixed(0)).join(", ");
        console.log(
          `raw-SQL reference (same rows, ${UPLOADERS.results + UPLOADERS.imports} uploaders, a pool of 10, ${RAW_ROUNDS} × ${seconds} s each way, in turn): ` +
            `server idle ${raw.toFixed(1)} uploads/s (median of ${list(alone.map((run) => run.uploadsPerSecond))}; CPU per upload: client ${(rawCpu.client * 1000).toFixed(1)} ms, ` +
            `PostgreSQL ${(rawCpu.postgres * 1000).toFixed(1)} ms), Versus ÷ raw = ${(uploadsPerSecond / raw).toFixed(2)}; ` +
            `beside the load's reads at its rates ${rawBesideReads.toFixed(1)} uploads/s (median of ${list(beside)}; ${failedReads} reads failed), ` +
            `Versus ÷ raw beside the same reads = ${(uploadsPerSecond / rawBesideReads).toFixed(2)}`,
        );
      }
      // The least CPU Versus could spend per upload: the raw loop's, and what the loop is handed
      // ready (the bodies read, the rows prepared), before HTTP, keys, answers and retries.
      const handed = await preparationCpuPerUpload([resultsUpload, importUpload]);
      floor = rawCpu.client + rawCpu.postgres + handed.reading + handed.preparing;
      console.log(
        `what the raw loop is handed, done by this process (warm): reading a body ${(handed.reading * 1000).toFixed(2)} ms, preparing its rows (summaries, ` +
          `histograms, compressed samples) ${(handed.preparing * 1000).toFixed(2)} ms per upload; with the loop's own CPU, Versus's floor: ` +
          `${(floor * 1000).toFixed(1)} ms per upload (against ${((cpuPerUpload.server + cpuPerUpload.postgres) * 1000).toFixed(1)} ms spent${
            uploadsOwnCpu ? `, ${((uploadsOwnCpu.server + uploadsOwnCpu.postgres) * 1000).toFixed(1)} ms without the reads` : ""
          })`,
      );
    }
    return {
      workers: options.workers,
      endpoints: results.map((r) => ({
        title: r.title ?? "",
        perSecond: r.requests.total / r.duration,
        p50: r.latency.p50,
        p99: r.latency.p99,
        timeouts: r.timeouts,
      })),
      uploadsPerSecond,
      cpuPerUpload,
      uploadsOwnCpu,
      rssPeak: memory.peak,
      rawUploadsPerSecond: raw,
      rawBesideReadsPerSecond: rawBesideReads,
      floorCpuPerUpload: floor,
      checks,
    };
  } finally {
    await server.stop();
  }
}

function byKind(cpu: PostgresCpuByKind): string {
  return `sessions ${cpu.sessions.toFixed(1)} s, autovacuum ${cpu.autovacuum.toFixed(1)} s, other background ${cpu.otherBackground.toFixed(1)} s, unattributed ${cpu.unattributed.toFixed(1)} s`;
}
