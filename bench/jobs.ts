// Job dispatch benchmark (issue F6). On one production server with its embedded PostgreSQL:
//   1. 8 simulated agents claim and complete 10,000 empty jobs over HTTP (long-poll claim, then
//      complete with a one-metric run that ingest stores), against
//   2. raw SQL loops on the same database and the same Job table: 8 connections each claiming
//      with FOR UPDATE SKIP LOCKED, then storing the run and marking the job done in one
//      statement (what complete does, in the least SQL), and, for reference, only marking done.
//   3. Enqueue-to-start latency: an idle agent waits in its long-poll claim; the script enqueues a
//      one-job batch (through its own database connection, as another server process would) and
//      times until the agent has the job.
// Prints jobs/s of each, the ratios and the latency's p50 / p99 (target p50 ≤ 50 ms). The
// throughput target (≥ 0.25) is against the loop that completes as complete does, storing the run;
// the queue-only ratio is printed beside it as a reference. Ratios and figures only: nothing here
// asserts a time.
// Run: npx tsx bench/jobs.ts   (not part of the test suite; builds the app if needed)
import http from "node:http";
import pg from "pg";
import { benchProjectOf, postgresCpuSeconds, startBenchServer, type BenchServer } from "./lib/server";

const PORT = 3360; // bench/upload-1m.ts uses 3210, bench/comparison.ts 3220 (+1000 for PostgreSQL)
const AGENTS = 8;
const JOBS = Number(process.env.BENCH_JOBS ?? 10_000);
const LATENCY_SAMPLES = 200;

let server: BenchServer | undefined;
let stopping: Promise<void> | undefined;
const stop = () => (stopping ??= server?.stop() ?? Promise.resolve());
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => void stop().finally(() => process.exit(130)));
}

/** CPU time used by the server, PostgreSQL and this script (the agents or raw clients) while `work` runs. */
async function cpuDuring(work: () => Promise<void>): Promise<{ server: number; postgres: number; clients: number }> {
  const bench = server as BenchServer;
  const own = () => {
    const usage = process.cpuUsage();
    return (usage.user + usage.system) / 1e6;
  };
  // Every server process's: with several (VERSUS_WORKERS, one per core by default), the agents'
  // connections are spread over them.
  const before = { server: bench.serverCpuSeconds(), postgres: postgresCpuSeconds(bench.dataDir), clients: own() };
  await work();
  return {
    server: bench.serverCpuSeconds() - before.server,
    postgres: postgresCpuSeconds(bench.dataDir) - before.postgres,
    clients: own() - before.clients,
  };
}
const perJobMs = (cpu: { server: number; postgres: number; clients: number }) =>
  `server ${((cpu.server * 1000) / JOBS).toFixed(2)}, PostgreSQL ${((cpu.postgres * 1000) / JOBS).toFixed(2)}, clients ${((cpu.clients * 1000) / JOBS).toFixed(2)} ms of CPU per job`;

const quantile = (xs: number[], q: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number;
};

try {
  server = await startBenchServer("jobs", PORT);
  const base = server.baseUrl;
  const { db, project, user, databaseUrl } = await benchProjectOf(server, PORT, { name: "Jobs bench", slug: "jobs-bench" });
  const { createExperiment } = await import("../server/experiments/experiments");
  const { createEnrollmentToken } = await import("../server/agents/enrollment-tokens");
  const { startBatch } = await import("../server/agents/batches");
  const { ZExperimentInput } = await import("../server/schemas/experiment");

  try {
    // ---- set-up: a project, experiments with an "empty" workload, 8 enrolled agents
    const experiment = (slug: string, variants: string[], measuredRuns: number) =>
      createExperiment(
        db,
        project.slug,
        ZExperimentInput.parse({
          title: slug,
          slug,
          warmupRuns: 0,
          measuredRuns,
          variants: variants.map((name, i) => ({ name, isBaseline: i === 0, config: { workload: "empty" } })),
          metrics: [{ key: "op_ms", unit: "ms", direction: "lower_is_better" }],
        }),
      );
    await experiment("dispatch", ["A", "B"], JOBS / 2);
    await experiment("raw-queue", ["A", "B"], JOBS / 2);
    await experiment("raw-store", ["A", "B"], JOBS / 2);
    await experiment("latency", ["A"], 1);
    const token = await createEnrollmentToken(db, project.id, user.id, { name: "bench", expiresAt: null });

    // node:http with kept-alive connections, as an agent holds its connection: fetch costs the
    // client about twice the CPU per call, and the client shares the machine with the server.
    const keepAlive = new http.Agent({ keepAlive: true, maxSockets: AGENTS * 2 });
    const post = (path: string, credential: string, body?: unknown, signal?: AbortSignal) =>
      new Promise<{ status: number; body: Record<string, unknown> | null }>((resolve, reject) => {
        const payload = body === undefined ? undefined : JSON.stringify(body);
        const request = http.request(
          `${base}/api/v1${path}`,
          {
            method: "POST",
            agent: keepAlive,
            signal,
            headers: {
              Authorization: `Bearer ${credential}`,
              "Content-Type": "application/json",
              ...(payload ? { "Content-Length": Buffer.byteLength(payload) } : {}),
            },
          },
          (response) => {
            const chunks: Buffer[] = [];
            response.on("data", (chunk: Buffer) => chunks.push(chunk));
            response.on("error", reject);
            response.on("end", () => {
              const text = Buffer.concat(chunks).toString("utf8");
              const status = response.statusCode ?? 0;
              if (status >= 300) reject(new Error(`${path}: ${status} ${text.slice(0, 300)}`));
              else resolve({ status, body: text ? (JSON.parse(text) as Record<string, unknown>) : null });
            });
          },
        );
        request.on("error", reject);
        request.end(payload);
      });
    const agents: string[] = [];
    for (let i = 0; i < AGENTS; i++) {
      const registered = await post("/agents/register", token.secret, { name: `agent-${i}`, kind: "other", version: "bench", workloads: [{ name: "empty" }] });
      agents.push((registered.body as { credential: string }).credential);
    }
    type Job = { id: string; leaseToken: string };
    const claim = async (credential: string, wait: number, signal?: AbortSignal) =>
      (await post(`/jobs/claim?wait=${wait}`, credential, undefined, signal)).body?.job as Job | undefined;
    const complete = (credential: string, job: Job) =>
      post(`/jobs/${job.id}/complete`, credential, { leaseToken: job.leaseToken, run: { metrics: [{ key: "op_ms", summary: { n: 1, mean: 1 } }] } });

    // Warm-up: Next.js loads each route on first use.
    await startBatch(db, project.id, user.id, { experimentSlug: "latency", order: "interleaved", labels: {}, maxAttempts: 3 });
    const warm = await claim(agents[0] as string, 5);
    if (!warm) throw new Error("warm-up claim found no job");
    await complete(agents[0] as string, warm);

    // Each phase starts from the same state of the table: the previous phase's 10,000 finished
    // jobs left dead index entries that would slow the next phase's claims until autovacuum
    // came by, whenever that happens to be.
    const settle = () => db.$executeRawUnsafe(`VACUUM (ANALYZE) "Job"`);

    // ---- 1. over HTTP
    await startBatch(db, project.id, user.id, { experimentSlug: "dispatch", order: "interleaved", labels: {}, maxAttempts: 3 });
    await settle();
    let done = 0;
    let finished = false;
    // Each claim has its own signal (one shared signal would collect a listener per request);
    // when the last job is done, the claims still waiting are hung up.
    const waiting = new Set<AbortController>();
    const httpStarted = performance.now();
    let httpSeconds = 0;
    const httpCpu = await cpuDuring(
      async () =>
        void (await Promise.all(
          agents.map(async (credential) => {
            while (!finished) {
              const hangUp = new AbortController();
              waiting.add(hangUp);
              let job: Job | undefined;
              try {
                job = await claim(credential, 30, hangUp.signal);
              } catch (error) {
                if (finished) return;
                throw error;
              } finally {
                waiting.delete(hangUp);
              }
              if (!job) continue;
              await complete(credential, job);
              if (++done === JOBS) {
                httpSeconds = (performance.now() - httpStarted) / 1000;
                finished = true;
                for (const controller of waiting) controller.abort();
              }
            }
          }),
        )),
    );
    const stored = await db.job.count({ where: { experiment: { slug: "dispatch" }, status: "succeeded", runId: { not: null } } });
    if (stored !== JOBS) throw new Error(`expected ${JOBS} succeeded jobs with a run, found ${stored}`);
    const httpRate = JOBS / httpSeconds;

    // ---- 2. raw SQL on the same database and table, 8 connections, two statements per job (the
    //   claim is the same ordered walk of the queue's index as the server's claim):
    //   the claim (SKIP LOCKED), then either only marking the job done ("queue only"), or storing
    //   its run and metric result and marking it done in one statement ("with the run stored",
    //   the least SQL that does what complete does).
    const rawLoop = async (experimentSlug: string, storeRun: boolean) => {
      await startBatch(db, project.id, user.id, { experimentSlug, order: "interleaved", labels: {}, maxAttempts: 3 });
      await settle();
      const metric = await db.metric.findFirstOrThrow({ where: { experiment: { projectId: project.id, slug: experimentSlug } } });
      const pool = new pg.Pool({ connectionString: databaseUrl, max: AGENTS });
      const started = performance.now();
      const cpu = await cpuDuring(
        async () =>
          void (await Promise.all(
            Array.from({ length: AGENTS }, async () => {
              const client = await pool.connect();
              try {
                for (;;) {
                  const claimed = await client.query<{ id: string }>(
                    `UPDATE "Job" SET "status" = 'leased', "leaseToken" = 'raw', "leaseExpiresAt" = now() + interval '60 seconds', "attempts" = "attempts" + 1
                 WHERE "id" = (SELECT "id" FROM "Job" WHERE "projectId" = $1 AND "status" = 'queued'
                               ORDER BY "createdAt", "batchId", "position" LIMIT 1 FOR UPDATE SKIP LOCKED)
                 RETURNING "id"`,
                    [project.id],
                  );
                  const id = claimed.rows[0]?.id;
                  if (!id) return;
                  if (!storeRun) {
                    await client.query(`UPDATE "Job" SET "status" = 'succeeded', "leaseExpiresAt" = NULL, "finishedAt" = now() WHERE "id" = $1`, [id]);
                    continue;
                  }
                  await client.query(
                    `WITH job AS (SELECT "id", "experimentId", "variantId", "repetition" FROM "Job" WHERE "id" = $1),
                 run AS (INSERT INTO "Run" ("id", "experimentId", "variantId", "source", "repetition", "finishedAt")
                         SELECT gen_random_uuid()::text, "experimentId", "variantId", 'agent', "repetition", now() FROM job RETURNING "id"),
                 result AS (INSERT INTO "RunMetricResult" ("id", "runId", "metricId", "n", "mean") SELECT gen_random_uuid()::text, "id", $2, 1, 1 FROM run)
                 UPDATE "Job" SET "status" = 'succeeded', "runId" = run."id", "leaseExpiresAt" = NULL, "finishedAt" = now() FROM run WHERE "Job"."id" = $1`,
                    [id, metric.id],
                  );
                }
              } finally {
                client.release();
              }
            }),
          )),
      );
      const rate = JOBS / ((performance.now() - started) / 1000);
      await pool.end();
      return { rate, cpu };
    };
    const { rate: rawQueueRate } = await rawLoop("raw-queue", false);
    const { rate: rawStoreRate, cpu: rawStoreCpu } = await rawLoop("raw-store", true);

    // ---- 3. enqueue-to-start latency with an idle agent in its long-poll
    const latencies: number[] = [];
    const waiter = agents[0] as string;
    for (let i = 0; i < LATENCY_SAMPLES; i++) {
      const claimed = claim(waiter, 30);
      // Let the claim reach the server and start waiting.
      await new Promise((resolve) => setTimeout(resolve, 30));
      const enqueued = performance.now();
      await startBatch(db, project.id, user.id, { experimentSlug: "latency", order: "interleaved", labels: {}, maxAttempts: 3 });
      const job = await claimed;
      latencies.push(performance.now() - enqueued);
      if (!job) throw new Error("the waiting claim returned no job");
      await complete(waiter, job);
    }

    const p50 = quantile(latencies, 0.5);
    const mark = (ok: boolean) => (ok ? "✓" : "✗");
    console.log(`\n${JOBS.toLocaleString("en-US")} empty jobs, ${AGENTS} agents / connections`);
    console.log(`  over HTTP: claim + complete (run stored by ingest)  ${httpRate.toFixed(0).padStart(6)} jobs/s  (${httpSeconds.toFixed(1)} s)`);
    console.log(`  raw SQL: SKIP LOCKED claim + store run, mark done   ${rawStoreRate.toFixed(0).padStart(6)} jobs/s`);
    console.log(`  raw SQL: SKIP LOCKED claim + mark done (queue only) ${rawQueueRate.toFixed(0).padStart(6)} jobs/s`);
    console.log(`  CPU, over HTTP:               ${perJobMs(httpCpu)}`);
    console.log(`  CPU, raw SQL with run stored: ${perJobMs(rawStoreCpu)}`);
    console.log(`  ratio HTTP / raw with the run stored: ${(httpRate / rawStoreRate).toFixed(3)}  (target ≥ 0.25 ${mark(httpRate / rawStoreRate >= 0.25)})`);
    console.log(`  ratio HTTP / raw queue only:          ${(httpRate / rawQueueRate).toFixed(3)}  (reference: no run stored)`);
    console.log(`enqueue-to-start, idle agent in long-poll, ${LATENCY_SAMPLES} one-job batches enqueued from another connection:`);
    console.log(`  p50 ${p50.toFixed(1)} ms, p99 ${quantile(latencies, 0.99).toFixed(1)} ms  (target p50 ≤ 50 ms ${mark(p50 <= 50)})`);
    keepAlive.destroy();
  } finally {
    await db.$disconnect();
  }
} finally {
  await stop();
}
