import fs from "node:fs";
import { startEmbeddedPostgres } from "./server/db/embedded-postgres";
import { migrate } from "./server/db/migrator";
const dir = fs.mkdtempSync("/tmp/prof/pg-"); fs.chmodSync(dir, 0o755);
const pgs = await startEmbeddedPostgres({ dataDir: dir, port: 4399 });
await pgs.ensureDatabase("prof");
const url = pgs.urlFor("prof");
await migrate(url);
process.env.DATABASE_URL = url;
const { db } = await import("./server/db/client");
const { jobsProject, registeredAgent, batchOf, agentApi } = await import("./test/agent-protocol");
try {
  const project = await jobsProject(db, "prof", { measuredRuns: 1000 });
  const agents = await Promise.all(Array.from({ length: 8 }, () => registeredAgent(project)));
  await batchOf(db, project);
  const started = performance.now();
  let done = 0;
  const t = { claim: 0, complete: 0 };
  await Promise.all(agents.map(async (agent) => {
    for (;;) {
      let s = performance.now();
      const c = await agentApi.claim(agent.credential, 0);
      t.claim += performance.now() - s;
      if (c.status === 204) return;
      const job = (c.body as any).job;
      s = performance.now();
      const r = await agentApi.complete(agent.credential, job.id, { leaseToken: job.leaseToken, run: { metrics: [{ key: "latency", summary: { n: 1, mean: 1 } }] } });
      t.complete += performance.now() - s;
      if (r.status !== 201) throw new Error(JSON.stringify(r));
      done++;
    }
  }));
  const secs = (performance.now() - started) / 1000;
  console.log(`in-process, 8 concurrent: ${(done / secs).toFixed(0)} jobs/s; claim avg ${(t.claim / done).toFixed(1)} ms, complete avg ${(t.complete / done).toFixed(1)} ms`);
} finally {
  await db.$disconnect();
  await pgs.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
process.exit(0);
