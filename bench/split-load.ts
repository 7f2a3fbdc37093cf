// One load test across several agents (issue F18) against one loopback target (versus-target):
// the same rate R sent by one Go agent, and by three Go agents at R/3 each (a job group: one
// synchronized start, one run merged from theirs), the two variants interleaved run by run.
// Prints, side by side, each run's merged p50/p99, total req/s, the shards' start skew and clock
// offsets, and each agent process's CPU (its generator's own figure). Figures only: nothing here
// asserts a time. On one machine — and a 2-core one above all — the agents, the target, Versus and
// PostgreSQL share the same cores: this shows that the split is correct and what it costs, not
// that three agents send more than one.
// Run: npx tsx bench/split-load.ts   (needs go; builds the app if needed)
//   BENCH_RATE (default 3000) req/s in all, BENCH_SECONDS (default 10) per run, BENCH_ROUNDS
//   (default 3) runs of each variant, BENCH_PORT (default 3370; PostgreSQL on port + 1000).
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildGoBinaries, fixed, startTarget, type Target } from "./lib/http-tools";
import { benchProjectOf, startBenchServer, type BenchServer } from "./lib/server";

const PORT = Number(process.env.BENCH_PORT ?? 3370);
const RATE = Number(process.env.BENCH_RATE ?? 3000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const AGENTS = 3;

let server: BenchServer | undefined;
let target: Target | undefined;
const agents: ChildProcess[] = [];
const stopAll = async () => {
  for (const agent of agents) if (agent.exitCode === null) agent.kill("SIGTERM");
  await Promise.all(agents.map((agent) => (agent.exitCode === null ? new Promise((resolve) => agent.once("exit", resolve)) : undefined)));
  await target?.stop();
  await server?.stop();
};
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => void stopAll().finally(() => process.exit(130)));

interface Generator {
  cpuPercent?: number;
  cores?: number;
  late?: number;
  slots?: number;
  keptRate?: boolean;
}
type Environment = { generator?: Generator; agents?: { agent: string; generator?: Generator; clockOffsetMs?: number | null }[] };

try {
  const binaries = buildGoBinaries();
  target = await startTarget(binaries.target);
  server = await startBenchServer("split", PORT, { VERSUS_LOCAL_AGENT: "0" });
  const { db, project, user } = await benchProjectOf(server, PORT, { name: "Split bench", slug: "split-bench" });
  const { createExperiment } = await import("../server/experiments/experiments");
  const { createEnrollmentToken } = await import("../server/agents/enrollment-tokens");
  const { startBatch } = await import("../server/agents/batches");
  const { ZExperimentInput } = await import("../server/schemas/experiment");

  try {
    const settings = { url: target.url, rate: RATE, duration: SECONDS, warmupSeconds: 1 };
    await createExperiment(
      db,
      project.slug,
      ZExperimentInput.parse({
        title: "One agent vs three",
        slug: "split",
        warmupRuns: 0,
        measuredRuns: ROUNDS,
        variants: [
          { name: "1 agent", isBaseline: true, config: { workload: "http", settings } },
          { name: `${AGENTS} agents`, isBaseline: false, config: { workload: "http", settings, agents: AGENTS } },
        ],
        metrics: [
          { key: "latency", unit: "ms", direction: "lower_is_better" },
          { key: "throughput", unit: "req/s", direction: "higher_is_better" },
          { key: "requests", unit: "count", direction: "higher_is_better" },
        ],
      }),
    );
    const token = await createEnrollmentToken(db, project.id, user.id, { name: "bench", expiresAt: null });
    for (let i = 1; i <= AGENTS; i++) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), `versus-split-bench-${i}-`));
      agents.push(
        spawn(binaries.agent, ["agent"], {
          stdio: "ignore",
          env: {
            ...process.env,
            VERSUS_URL: server.baseUrl,
            VERSUS_ENROLLMENT_TOKEN: token.secret,
            VERSUS_AGENT_NAME: `bench-${i}`,
            VERSUS_AGENT_CREDENTIAL_FILE: path.join(dir, "credential.json"),
            VERSUS_AGENT_BUFFER_DIR: path.join(dir, "buffer"),
          },
        }),
      );
    }
    const deadline = Date.now() + 60_000;
    while ((await db.agent.count({ where: { projectId: project.id, capabilities: { has: "shards" } } })) < AGENTS) {
      if (Date.now() > deadline) throw new Error(`the ${AGENTS} agents did not register within 60 s`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const batch = await startBatch(db, project.id, user.id, { experimentSlug: "split", order: "interleaved", labels: {}, maxAttempts: 1 });
    console.log(`\n${RATE} req/s against ${target.url} for ${SECONDS} s per run (after 1 s of warm-up), ${ROUNDS} runs of each variant, interleaved`);
    for (;;) {
      const open = await db.job.count({ where: { batchId: batch.id, status: { in: ["queued", "leased"] } } });
      if (open === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    const failed = await db.job.findMany({ where: { batchId: batch.id, status: { not: "succeeded" } }, select: { status: true, error: true } });
    for (const job of failed) console.log(`  a job ${job.status}: ${job.error}`);

    const runs = await db.run.findMany({
      where: { experiment: { projectId: project.id } },
      orderBy: { createdAt: "asc" },
      include: { variant: true, results: { include: { metric: true } }, job: { select: { groupId: true } } },
    });
    console.log(
      `\n  ${"variant".padEnd(9)} ${"run".padStart(3)}  ${"p50 ms".padStart(8)} ${"p99 ms".padStart(8)} ${"req/s".padStart(8)}  ${"start skew".padStart(10)}  agents (CPU % of one core; clock offset)`,
    );
    for (const run of runs) {
      const figure = (key: string) => run.results.find((result) => result.metric.key === key);
      const environment = run.environment as Environment;
      let skew = "—";
      let who: string;
      if (run.job?.groupId) {
        const shards = await db.job.findMany({ where: { groupId: run.job.groupId }, orderBy: { shard: "asc" }, include: { agent: true } });
        const starts = shards.map((shard) => Date.parse((shard.shardRun as { startedAt?: string } | null)?.startedAt ?? ""));
        skew = `${fixed(Math.max(...starts) - Math.min(...starts), 0)} ms`;
        who = (environment.agents ?? [])
          .map((shard) => `${shard.agent} ${fixed(shard.generator?.cpuPercent, 0)}%; ${fixed(shard.clockOffsetMs ?? undefined, 2)} ms`)
          .join(" · ");
      } else {
        who = `${run.sourceDetail ?? "?"} ${fixed(environment.generator?.cpuPercent, 0)}%`;
      }
      const limited = run.tags.includes("generator-limited") ? "  (generator-limited)" : "";
      console.log(
        `  ${run.variant.name.padEnd(9)} ${String(run.repetition).padStart(3)}  ${fixed(figure("latency")?.p50 ?? undefined, 3).padStart(8)} ${fixed(figure("latency")?.p99 ?? undefined, 3).padStart(8)} ${fixed(figure("throughput")?.mean ?? undefined, 0).padStart(8)}  ${skew.padStart(10)}  ${who}${limited}`,
      );
    }
    console.log(
      `\n  ${os.cpus().length} cores here. The agents, the target, Versus and PostgreSQL share them: ${os.cpus().length <= 2 ? "on a 2-core machine these figures show the split's correctness and overhead, not scale — three agents on one box cannot send more than one" : "the split shows its overhead here; scale needs agents on machines of their own"}.`,
    );
  } finally {
    await db.$disconnect();
  }
} finally {
  await stopAll();
}
