// Coordinated-omission benchmark (issue F7): the target (versus-target -stall-every 5s
// -stall-for 1s) holds every response for 1 s every 5 s. Against it:
//   wrk (closed loop, 10 connections), versus-agent's open model at a rate well below the
//   target's capacity, and versus-agent's closed model (10 connections).
// Prints each one's p99. The open model counts latency from when each request was due, so its
// p99 shows the stall (it should be ≥ wrk's). wrk 4 is a closed loop too, but after the run it
// adds the requests a stalled connection would have sent at its average interval (stats_correct
// in wrk.c), so its p99 shows the stall as well; versus-agent's closed model records what it saw
// and its summary carries the coordinated-omission warning instead. Figures only: nothing here asserts a time.
//
// Run: npx tsx bench/http-stall.ts     (needs go and wrk: sudo apt-get install -y wrk)
import { buildGoBinaries, fixed, requireWrk, runAgentJson, runAgentSummary, runWrk, startTarget } from "./lib/http-tools";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const RATE = Number(process.env.BENCH_RATE ?? 2000);

requireWrk();
const binaries = buildGoBinaries();
const target = await startTarget(binaries.target, ["-stall-every", "5s", "-stall-for", "1s"]);
const stop = () => void target.stop().finally(() => process.exit(130));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);

try {
  console.log(`\ntarget ${target.url} stalls 1 s in every 5 s; ${SECONDS} s per run`);
  const wrk = runWrk(target.url, 10, SECONDS);
  console.log(`  wrk, 10 connections (closed loop):           p99 ${fixed(wrk.p99Ms, 2).padStart(8)} ms   (${fixed(wrk.requestsPerSec, 0)} req/s)`);
  const open = runAgentJson(binaries.agent, { url: target.url, rate: RATE, maxConnections: 256, duration: SECONDS });
  console.log(`  versus-agent open model, ${RATE} req/s:        p99 ${fixed(open.p99Ms, 2).padStart(8)} ms   (${fixed(open.requestsPerSec, 0)} req/s)`);
  const closed = runAgentJson(binaries.agent, { url: target.url, connections: 10, duration: SECONDS });
  console.log(`  versus-agent closed model, 10 connections:   p99 ${fixed(closed.p99Ms, 2).padStart(8)} ms   (${fixed(closed.requestsPerSec, 0)} req/s)`);
  const shows = (open.p99Ms ?? 0) >= (wrk.p99Ms ?? Infinity);
  console.log(`  open-model p99 ≥ wrk's p99 (the stall shows): ${shows ? "✓" : "✗"}`);
  const summary = runAgentSummary(binaries.agent, { url: target.url, connections: 10, duration: 3 });
  const warning = summary.split("\n").find((line) => line.includes("coordinated omission"));
  console.log(`  closed-model summary prints the coordinated-omission warning: ${warning ? "✓" : "✗"}`);
  if (warning) console.log(`    ${warning}`);
} finally {
  await target.stop();
}
