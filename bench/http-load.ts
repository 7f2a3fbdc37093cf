// HTTP load generation benchmark (issue F7): does versus-agent's http workload generate load as
// fast as wrk? Both aim at the same loopback target (versus-target: net/http, a 13-byte body)
// with the same connections (10, then 50) for the same time; prints req/s of each and the ratio
// (target ≥ 0.8). The target, wrk and the agent share this machine's cores, so the figures move
// with whatever else runs; runs alternate wrk / agent to share the drift. Figures only: nothing
// here asserts a time.
//
// Probes (issue F15): a third run per round has a `process` probe on the target (its CPU %, RSS
// and threads from /proc at 1 Hz, as a job with a probe does); it prints its req/s against the
// run without the probe (target: unchanged within 2%), and what one probe costs the agent (the
// Go benchmark BenchmarkProbeCost: CPU per reading as a share of one core at 1 Hz; target ≤ 1%).
//
// Run: npx tsx bench/http-load.ts            (needs go and wrk: sudo apt-get install -y wrk)
//      BENCH_SECONDS=10 BENCH_ROUNDS=2 npx tsx bench/http-load.ts
// The recording hot path has its own Go benchmark (budget ≤ 50 ns/op):
//      cd agents/go && go test -run '^$' -bench RecordLatency -benchmem ./internal/workload/loadgen/
import { execFileSync } from "node:child_process";
import path from "node:path";
import { median } from "../server/stats/descriptive";
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
    const ratios: { agent: number[]; probed: number[] } = { agent: [], probed: [] };
    for (let round = 1; round <= ROUNDS; round++) {
      const wrk = runWrk(target.url, connections, SECONDS);
      // Without and with the probe, in turns (each round swaps which goes first) to share the drift.
      const settings = { url: target.url, connections, duration: SECONDS };
      const withProbe = () => runAgentJson(binaries.agent, settings, ["--probe", `name=target,pid=${target.pid},interval=1`]);
      const probedFirst = round % 2 === 0;
      const early = probedFirst ? withProbe() : undefined;
      const agent = runAgentJson(binaries.agent, settings);
      const probed = early ?? withProbe();
      const ratio = agent.requestsPerSec / wrk.requestsPerSec;
      const probedRatio = probed.requestsPerSec / agent.requestsPerSec;
      const within = Math.abs(probedRatio - 1) <= 0.02;
      ratios.agent.push(ratio);
      ratios.probed.push(probedRatio);
      const label = `  ${String(connections).padStart(2)} connections${ROUNDS > 1 ? ` (round ${round})` : ""}:  `;
      console.log(
        label +
          `wrk ${fixed(wrk.requestsPerSec, 0).padStart(7)} req/s   ` +
          `versus-agent ${fixed(agent.requestsPerSec, 0).padStart(7)} req/s   ratio ${ratio.toFixed(3)} (target ≥ 0.8 ${ratio >= 0.8 ? "✓" : "✗"})`,
      );
      console.log(
        " ".repeat(label.length) +
          `with a process probe on the target ${fixed(probed.requestsPerSec, 0).padStart(7)} req/s   ` +
          `÷ without ${probedRatio.toFixed(3)} (target 1 ± 0.02 ${within ? "✓" : "✗"})   ` +
          `the target's CPU ${fixed(probed.means["target.cpu_percent"])} %, RSS ${fixed((probed.means["target.rss"] ?? NaN) / 2 ** 20)} MiB` +
          (probed.runWarnings.length > 0 ? `   warnings: ${probed.runWarnings.join("; ")}` : ""),
      );
    }
    if (ROUNDS > 1) {
      // One round's ratio moves with whatever else the machine does; the median of the rounds is the figure.
      const agent = median(ratios.agent);
      const probed = median(ratios.probed);
      console.log(
        `  ${String(connections).padStart(2)} connections, median of ${ROUNDS} rounds:  versus-agent ÷ wrk ${agent.toFixed(3)} (target ≥ 0.8 ${agent >= 0.8 ? "✓" : "✗"})   ` +
          `with the probe ÷ without ${probed.toFixed(3)} (target 1 ± 0.02 ${Math.abs(probed - 1) <= 0.02 ? "✓" : "✗"})`,
      );
    }
  }
  // What one probe costs the agent: CPU per reading (getrusage) as a share of one core at 1 Hz.
  const cost = execFileSync("go", ["test", "-run", "^$", "-bench", "ProbeCost", "-benchtime", "200x", "./internal/probe/"], {
    cwd: path.resolve(import.meta.dirname, "../agents/go"),
    encoding: "utf8",
  });
  console.log("\nprobe cost (BenchmarkProbeCost, target ≤ 1 % of a core at 1 Hz):");
  // e.g. "BenchmarkProbeCost/process_by_pid,_/proc-2  200  29660 ns/op  0.003060 %core@1Hz  30.00 cpu-µs/reading"
  for (const line of cost.split("\n")) {
    const name = /^BenchmarkProbeCost\/(\S+?)(?:-\d+)?\s/.exec(line)?.[1];
    const share = /([\d.e+-]+) %core@1Hz/.exec(line)?.[1];
    const perReading = /([\d.e+-]+) cpu-µs\/reading/.exec(line)?.[1];
    if (name && share && perReading) console.log(`  ${name.replaceAll("_", " ")}: ${perReading} CPU µs per reading = ${share} % of a core at 1 Hz`);
  }
} finally {
  await target.stop();
}
