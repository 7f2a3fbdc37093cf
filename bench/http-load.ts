// HTTP load generation benchmark (issue F7): does versus-agent's http workload generate load as
// fast as wrk? Both aim at the same loopback target (versus-target: net/http, a 13-byte body)
// with the same connections (10, then 50) for the same time; prints req/s of each and the ratio
// (target ≥ 0.8). The target, wrk and the agent share this machine's cores, so the figures move
// with whatever else runs; runs alternate wrk / agent to share the drift. Figures only: nothing
// here asserts a time.
//
// Run: npx tsx bench/http-load.ts            (needs go and wrk: sudo apt-get install -y wrk)
//      BENCH_SECONDS=10 BENCH_ROUNDS=2 npx tsx bench/http-load.ts
// The recording hot path has its own Go benchmark (budget ≤ 50 ns/op):
//      cd agents/go && go test -run '^$' -bench RecordLatency -benchmem ./internal/workload/http/
import { buildGoBinaries, fixed, requireWrk, runAgentJson, runWrk, startTarget } from "./lib/http-tools";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);

requireWrk();
const binaries = buildGoBinaries();
const target = await startTarget(binaries.target);
const stop = () => void target.stop().finally(() => process.exit(130));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);

try {
  // Warm the target up (its first connections, the page cache of both binaries).
  runWrk(target.url, 10, 1);
  console.log(`\nloopback target ${target.url}, ${SECONDS} s per run, closed model (the same as wrk)`);
  for (const connections of [10, 50]) {
    for (let round = 1; round <= ROUNDS; round++) {
      const wrk = runWrk(target.url, connections, SECONDS);
      const agent = runAgentJson(binaries.agent, { url: target.url, connections, duration: SECONDS });
      const ratio = agent.requestsPerSec / wrk.requestsPerSec;
      console.log(
        `  ${String(connections).padStart(2)} connections${ROUNDS > 1 ? ` (round ${round})` : ""}:  wrk ${fixed(wrk.requestsPerSec, 0).padStart(7)} req/s   ` +
          `versus-agent ${fixed(agent.requestsPerSec, 0).padStart(7)} req/s   ratio ${ratio.toFixed(3)} (target ≥ 0.8 ${ratio >= 0.8 ? "✓" : "✗"})`,
      );
    }
  }
} finally {
  await target.stop();
}
