// PostgreSQL's CPU over a stretch of a benchmark, split by the kind of process that spent it: the
// sessions (backends serving a client's connection) against autovacuum and the other background
// processes. A read is priced by what the sessions spent while the reads ran alone, so work the
// load left behind (autovacuum, checkpoints, WAL writes of its rows) is not charged to it; the
// split also shows where PostgreSQL's CPU went. The processes' titles tell the kinds apart
// (PostgreSQL sets them: "postgres: user db 127.0.0.1(5432) idle", "postgres: autovacuum worker", …).
//
// Processes come and go (autovacuum workers, sessions a pool closes), so every process is read a
// few times a second and counted up to its last reading; what exited between two readings shows
// as "unattributed" (the postmaster's count of its exited children holds it).
import fs from "node:fs";
import { childrenOf, cpuSecondsOf, postmasterPid } from "./server";

export interface PostgresCpuByKind {
  /** Backends serving a client connection: the work the queries asked for. */
  sessions: number;
  autovacuum: number;
  /** Checkpointer, background and WAL writers, launchers and the like. */
  otherBackground: number;
  /** Spent by processes that exited between two readings, and by the postmaster itself. */
  unattributed: number;
  total: number;
}

type Kind = "sessions" | "autovacuum" | "otherBackground";

export function samplePostgresCpu(dataDir: string, everyMs = 250): { stop(): PostgresCpuByKind } {
  const postmaster = postmasterPid(dataDir);
  // pid → CPU at its first reading (0 for a process born after the start) and at its last.
  const seen = new Map<number, { kind: Kind; first: number; last: number }>();
  // Reads every child once and answers PostgreSQL's CPU so far (as postgresCpuSeconds in
  // ./server.ts counts it: the postmaster with its exited children, and the living ones).
  const read = (isStart: boolean) => {
    let living = 0;
    for (const pid of childrenOf(postmaster)) {
      const cpu = cpuSecondsOf(pid);
      living += cpu;
      const known = seen.get(pid);
      if (known) known.last = cpu;
      else seen.set(pid, { kind: kindOf(pid), first: isStart ? cpu : 0, last: cpu });
    }
    return cpuSecondsOf(postmaster, true) + living;
  };
  const totalBefore = read(true);
  const timer = setInterval(() => read(false), everyMs);
  return {
    stop() {
      clearInterval(timer);
      const total = read(false) - totalBefore;
      const spent: Record<Kind, number> = { sessions: 0, autovacuum: 0, otherBackground: 0 };
      for (const process of seen.values()) spent[process.kind] += process.last - process.first;
      return { ...spent, unattributed: Math.max(0, total - spent.sessions - spent.autovacuum - spent.otherBackground), total };
    },
  };
}

function kindOf(pid: number): Kind {
  let title = "";
  try {
    title = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
  } catch {
    return "otherBackground";
  }
  if (title.includes("autovacuum")) return "autovacuum";
  // A session's title names its client: "postgres: user db 127.0.0.1(54321) idle" or "[local]".
  return /\(\d+\)|\[local\]/.test(title) ? "sessions" : "otherBackground";
}
