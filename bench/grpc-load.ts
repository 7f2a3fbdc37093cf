// gRPC load generation benchmark (issue F16), two parts against the bundled target's gRPC service
// (versus-target -grpc-addr: `versus-agent target` under its own name, versus.target.Payloads):
//
// 1. Does versus-agent's grpc workload make calls as fast as ghz? Both call Payloads/Unary on the
//    same loopback target with the same callers (ghz -c: 10, then 50) over the same single HTTP/2
//    connection (ghz's default and the workload's) for the same time, closed model, no warm-up in
//    either (the target is warmed once before). The message is the answer: the request is
//    {"size": N} and the target answers N bytes (64 B and 1 MiB), so the 1 MiB case moves the
//    payload server → client, the direction of the HTTP-vs-gRPC write-up's downloads. Both read
//    the method from payload.proto (no reflection round trip in either); ghz runs without its
//    per-call templating of -d (lib/ghz.ts), its fastest for a fixed message. Rounds alternate which
//    tool goes first, to share the drift of this shared machine; prints each round, then the
//    medians: calls/s, the ratio (target ≥ 0.8) and p50/p99 of each.
// 2. Coordinated omission over gRPC: the target holds every call for 1 s in every 5 s
//    (-stall-every 5s -stall-for 1s; its gRPC calls wait as its HTTP answers do). The workload's
//    open model (a constant call rate, latency from when each call was due) should show the stall
//    in its p99: 20 % of the calls fall in a stall and wait 0–1 s, so p99 ≈ 0.95 × the stall.
//    Its closed model (10 callers) and ghz (-c 10) only send when answered, so the stall hides.
//
// Figures only: nothing here asserts a time. Traffic stays on 127.0.0.1.
//
// Run: npx tsx bench/grpc-load.ts     (needs go and ghz: go install github.com/bojand/ghz/cmd/ghz@latest)
//      BENCH_SECONDS=5 BENCH_ROUNDS=2 npx tsx bench/grpc-load.ts
import os from "node:os";
import path from "node:path";
import { median } from "../server/stats/descriptive";
import { requireGhz, runGhz } from "./lib/ghz";
import { buildGoBinaries, fixed, runAgentJson, startTarget, type LoadFigures } from "./lib/http-tools";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const STALL_SECONDS = Number(process.env.BENCH_STALL_SECONDS ?? 15);
const RATE = Number(process.env.BENCH_RATE ?? 200);
const SIZES = [64, 1 << 20];
const CALLERS = [10, 50];
const CONNECTIONS = 1;
const STALL_MS = 1000;

const method = "versus.target.Payloads/Unary";
const proto = path.resolve(import.meta.dirname, "../agents/go/internal/target/payload.proto");

const ghz = requireGhz();
const binaries = buildGoBinaries();
const target = await startTarget(binaries.target, ["-grpc-addr", "127.0.0.1:0"]);
const stalling = await startTarget(binaries.target, ["-grpc-addr", "127.0.0.1:0", "-stall-every", "5s", "-stall-for", `${STALL_MS}ms`]);
const stopAll = () => Promise.all([target.stop(), stalling.stop()]);
const stop = () => void stopAll().finally(() => process.exit(130));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);

const load = () => os.loadavg()[0]!.toFixed(2);
const size = (bytes: number) => (bytes >= 1 << 20 ? `${bytes / (1 << 20)} MiB` : `${bytes} B`);
const ms = (value: number | undefined) => `${fixed(value, 2)} ms`;
const agentGrpc = (addr: string, settings: Record<string, unknown>) =>
  runAgentJson(binaries.agent, { target: addr, method, protoFile: proto, ...settings }, [], "grpc");

try {
  const addr = target.grpcAddr!;
  // Warm the target up: its payload buffer, its first connections, the page cache of both binaries.
  for (const bytes of SIZES) runGhz(ghz, { target: addr, call: method, proto, data: { size: bytes }, concurrency: 10, connections: 1, seconds: 2 });

  console.log(
    `\nloopback target ${addr} (${method}, the answer is the message), ${SECONDS} s per run, closed model, ` +
      `${CONNECTIONS} connection, ${ROUNDS} round(s) alternating which tool goes first; ${os.cpus().length} cores, load average ${load()}`,
  );
  const table: string[][] = [];
  for (const bytes of SIZES) {
    for (const callers of CALLERS) {
      const rounds: { ours: LoadFigures; theirs: LoadFigures; ratio: number }[] = [];
      for (let round = 1; round <= ROUNDS; round++) {
        const runOurs = () => agentGrpc(addr, { data: JSON.stringify({ size: bytes }), callers, connections: CONNECTIONS, duration: SECONDS });
        const runTheirs = () =>
          runGhz(ghz, { target: addr, call: method, proto, data: { size: bytes }, concurrency: callers, connections: CONNECTIONS, seconds: SECONDS });
        const ghzFirst = round % 2 === 1;
        const early = ghzFirst ? runTheirs() : undefined;
        const ours = runOurs();
        const theirs = early ?? runTheirs();
        const ratio = ours.requestsPerSec / theirs.requestsPerSec;
        rounds.push({ ours, theirs, ratio });
        console.log(
          `  ${size(bytes).padStart(6)}, ${String(callers).padStart(2)} callers, round ${round} (${ghzFirst ? "ghz" : "versus-agent"} first, load ${load()}):  ` +
            `versus-agent ${fixed(ours.requestsPerSec, 0).padStart(6)} calls/s  p50 ${ms(ours.p50Ms)}  p99 ${ms(ours.p99Ms)}   ` +
            `ghz ${fixed(theirs.requestsPerSec, 0).padStart(6)} calls/s  p50 ${ms(theirs.p50Ms)}  p99 ${ms(theirs.p99Ms)}   ratio ${ratio.toFixed(3)}   ` +
            `not OK: versus-agent ${fixed(ours.means.errors, 0)}, ghz ${theirs.notOk}`,
        );
      }
      // One round moves with whatever else the machine does; the medians of the rounds are the figures.
      const mid = (pick: (r: (typeof rounds)[number]) => number | undefined) => median(rounds.map(pick).filter((v): v is number => v !== undefined));
      const ratio = mid((r) => r.ratio);
      table.push([
        `${size(bytes)}, ${callers} callers`,
        fixed(
          mid((r) => r.ours.requestsPerSec),
          0,
        ),
        fixed(
          mid((r) => r.theirs.requestsPerSec),
          0,
        ),
        `${ratio.toFixed(3)} ${ratio >= 0.8 ? "✓" : "✗"}`,
        `${fixed(
          mid((r) => r.ours.p50Ms),
          2,
        )} / ${fixed(
          mid((r) => r.ours.p99Ms),
          2,
        )}`,
        `${fixed(
          mid((r) => r.theirs.p50Ms),
          2,
        )} / ${fixed(
          mid((r) => r.theirs.p99Ms),
          2,
        )}`,
      ]);
    }
  }
  printTable(
    `medians of ${ROUNDS} round(s); ratio = median of the rounds' versus-agent ÷ ghz (target ≥ 0.8)`,
    ["case", "versus-agent calls/s", "ghz calls/s", "ratio", "versus-agent p50 / p99 ms", "ghz p50 / p99 ms"],
    table,
  );

  const stallAddr = stalling.grpcAddr!;
  const small = JSON.stringify({ size: 64 });
  console.log(`\ntarget ${stallAddr} holds every call for ${STALL_MS} ms in every 5 s; ${STALL_SECONDS} s per run, 64 B answers (load ${load()})`);
  const open = agentGrpc(stallAddr, { data: small, model: "open", rate: RATE, duration: STALL_SECONDS });
  const closed = agentGrpc(stallAddr, { data: small, callers: 10, connections: CONNECTIONS, duration: STALL_SECONDS });
  const reference = runGhz(ghz, {
    target: stallAddr,
    call: method,
    proto,
    data: { size: 64 },
    concurrency: 10,
    connections: CONNECTIONS,
    seconds: STALL_SECONDS,
  });
  const ofStall = (value: number | undefined) => (value === undefined ? "?" : (value / STALL_MS).toFixed(2));
  const stallRows = [
    [`versus-agent open model, ${RATE} calls/s`, open],
    ["versus-agent closed model, 10 callers", closed],
    ["ghz -c 10 (closed loop)", reference],
  ] as const;
  printTable(
    "latency against the stall (÷ stall: the figure over the stall's length)",
    ["run", "calls/s", "p50 ms", "p99 ms", "max ms", "p99 ÷ stall", "max ÷ stall"],
    stallRows.map(([label, f]) => [
      label,
      fixed(f.requestsPerSec, 0),
      fixed(f.p50Ms, 2),
      fixed(f.p99Ms, 2),
      fixed(f.maxMs, 2),
      ofStall(f.p99Ms),
      ofStall(f.maxMs),
    ]),
  );
  const openShows = (open.p99Ms ?? 0) >= 0.9 * STALL_MS;
  const closedHides = (closed.p99Ms ?? Infinity) <= 0.1 * STALL_MS;
  console.log(`  open-model p99 ≥ 0.9 × the stall (the stall shows): ${openShows ? "✓" : "✗"}`);
  console.log(`  closed-model p99 ≤ 0.1 × the stall (coordinated omission hides it): ${closedHides ? "✓" : "✗"}`);
  const warning = closed.warnings.find((w) => w.includes("coordinated omission"));
  console.log(`  the closed-model run carries the coordinated-omission warning: ${warning ? "✓" : "✗"}`);
  for (const w of open.warnings) console.log(`  open-model warning: ${w}`);
  console.log(
    `\nload average at the end: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(", ")} (1, 5, 15 min)`,
  );
} finally {
  await stopAll();
}

function printTable(title: string, header: string[], rows: string[][]) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => "  " + cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("   ");
  console.log(`\n${title}:`);
  console.log(line(header));
  for (const row of rows) console.log(line(row));
}
