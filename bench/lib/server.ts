// Starts Versus for a benchmark the way `npm start` does (production build, embedded PostgreSQL
// in a throwaway data directory) and finds the Next.js server process to watch its memory.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { embeddedUrl, readEmbeddedCredentials } from "../../server/db/embedded-postgres";
import { waitForHealth } from "../../scripts/lib/wait-for-health";

export interface BenchServer {
  baseUrl: string;
  dataDir: string;
  /** PID of the next-server process that handles requests (with several, one of the workers). */
  serverPid: number;
  /** CPU seconds used so far by every server process (the primary and its workers with VERSUS_WORKERS above 1). */
  serverCpuSeconds(): number;
  stop(): Promise<void>;
}

const root = path.resolve(import.meta.dirname, "../..");

/** `env` is added to the server's environment (VERSUS_WORKERS, say). */
export async function startBenchServer(name: string, port: number, env: Record<string, string> = {}): Promise<BenchServer> {
  await refuseBusyPort(port, "the server");
  await refuseBusyPort(port + 1000, "its embedded PostgreSQL");
  const dataDir = path.join(root, ".data", `bench-${name}`);
  fs.rmSync(dataDir, { recursive: true, force: true });
  const child: ChildProcess = spawn(process.execPath, [path.join(root, "node_modules/tsx/dist/cli.mjs"), "scripts/start.ts"], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
    env: {
      ...process.env,
      DATABASE_URL: "",
      PORT: String(port),
      HOSTNAME: "127.0.0.1",
      VERSUS_DATA_DIR: dataDir,
      VERSUS_EMBEDDED_PG_PORT: String(port + 1000),
      VERSUS_SKIP_SEED: "1",
      ...env,
    },
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  let exited = false;
  child.once("exit", () => (exited = true));
  const up = await waitForHealth(baseUrl, { keepWaiting: () => !exited, timeoutMs: 300_000 }).catch((error: Error) => {
    child.kill("SIGTERM");
    throw error;
  });
  if (!up) throw new Error("the server exited during start-up (see its output above)");
  let serverPid: number;
  try {
    serverPid = findDescendant(child.pid as number, /next-server|next\/dist\/bin\/next|scripts\/serve\.ts/);
  } catch (error) {
    child.kill("SIGTERM");
    throw error;
  }
  return {
    baseUrl,
    dataDir,
    serverPid,
    serverCpuSeconds: () => descendants(child.pid as number, /scripts\/serve\.ts/).reduce((sum, pid) => sum + cpuSecondsOf(pid), 0),
    stop: async () => {
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Refuses a port something already listens on. Two benches started together (or a server one left
 * behind) would otherwise share it: the second's server could not listen, and the bench failed
 * later with "could not find the Next.js server process", or measured the other bench's server.
 */
async function refuseBusyPort(port: number, what: string): Promise<void> {
  const busy = await new Promise<boolean>((resolve) => {
    const probe = net.createServer();
    probe.once("error", () => resolve(true));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(false)));
  });
  if (busy) throw new Error(`port ${port} (${what}) is in use: is another bench running, or a server one left behind? Stop it or wait for it to end`);
}

/** The deepest process below `pid` (children, grandchildren, …) whose command line matches. */
function findDescendant(pid: number, pattern: RegExp): number {
  // The deepest match is the server itself (scripts/serve.ts runs Next.js in its own process).
  const found = descendants(pid, pattern).at(-1);
  if (found === undefined) throw new Error("could not find the Next.js server process");
  return found;
}

/** Every process below `pid` whose command line matches, parents before children. */
function descendants(pid: number, pattern: RegExp): number[] {
  const table = execFileSync("ps", ["-eo", "pid=,ppid=,args="], { encoding: "utf8" })
    .trim()
    .split("\n")
    .map((line) => {
      const [childPid, parentPid, ...args] = line.trim().split(/\s+/);
      return { pid: Number(childPid), ppid: Number(parentPid), args: args.join(" ") };
    });
  const queue = [pid];
  const matches: number[] = [];
  while (queue.length) {
    const parent = queue.shift() as number;
    for (const row of table.filter((r) => r.ppid === parent)) {
      if (pattern.test(row.args)) matches.push(row.pid);
      queue.push(row.pid);
    }
  }
  return matches;
}

/** Resident set size and its high-water mark of a process, in bytes (Linux /proc). */
export function memoryOf(pid: number): { rss: number; peak: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb("VmRSS"), peak: kb("VmHWM") };
}

/** Resets the high-water mark so VmHWM measures only what follows (Linux ≥ 4.0). */
export function resetPeak(pid: number) {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, "5");
  } catch {
    // without permission the peak includes start-up; the RSS before is subtracted anyway
  }
}

/** CPU time (user + system) a process has used so far, in seconds (Linux /proc; 0 once it exited). */
export function cpuSecondsOf(pid: number, withExitedChildren = false): number {
  try {
    // Fields after the command name (which may contain spaces): utime and stime are the 12th and
    // 13th, then cutime and cstime (children that exited and were waited for).
    const fields = (fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? []).map(Number);
    const [utime = 0, stime = 0, cutime = 0, cstime = 0] = fields.slice(11, 15);
    return (utime + stime + (withExitedChildren ? cutime + cstime : 0)) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}
const CLOCK_TICKS = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;

/** The PID of the benchmark's PostgreSQL (its postmaster), from the data directory. */
export function postmasterPid(dataDir: string): number {
  return Number(fs.readFileSync(path.join(dataDir, "postgres", "postmaster.pid"), "utf8").split("\n")[0]);
}

/** CPU seconds used so far by the benchmark's PostgreSQL: its postmaster and every process it started. */
export function postgresCpuSeconds(dataDir: string): number {
  const postmaster = postmasterPid(dataDir);
  return cpuSecondsOf(postmaster, true) + childrenOf(postmaster).reduce((sum, pid) => sum + cpuSecondsOf(pid), 0);
}

/** The PIDs whose parent is `parent`, from /proc (no `ps` spawned several times a second). */
export function childrenOf(parent: number): number[] {
  const children: number[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // After the command name (which may hold spaces and parentheses): state, then the parent's PID.
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === parent) children.push(Number(entry));
    } catch {
      // The process exited while the list was read.
    }
  }
  return children;
}

/**
 * A bench server (startBenchServer) with what the REST benchmarks need: its database's URL and
 * a project API key for project "bench", made by `versus admin create-key`.
 */
export async function startBenchServerWithKey(
  name: string,
  port: number,
  env: Record<string, string> = {},
): Promise<{ server: BenchServer; databaseUrl: string; auth: { Authorization: string } }> {
  const startedAt = performance.now();
  const server = await startBenchServer(name, port, env);
  const credentials = readEmbeddedCredentials(server.dataDir);
  if (!credentials) throw new Error("no embedded database credentials");
  const databaseUrl = embeddedUrl(credentials, port + 1000, "versus");
  console.log(`server up on ${server.baseUrl} in ${((performance.now() - startedAt) / 1000).toFixed(1)} s`);
  const apiKey = execFileSync(process.execPath, ["scripts/cli/bin.mjs", "admin", "create-key", "--project", "bench"], {
    encoding: "utf8",
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdio: ["ignore", "pipe", "ignore"],
  }).trim();
  return { server, databaseUrl, auth: { Authorization: `Bearer ${apiKey}` } };
}

/**
 * A script's own way into a bench server's database, for set-up the API does not offer: sets
 * DATABASE_URL (the server modules a script then imports read it when first loaded) and opens a
 * client, with a project and a user of it to own what the script makes.
 */
export async function benchProjectOf(server: BenchServer, port: number, project: { name: string; slug: string }) {
  const credentials = readEmbeddedCredentials(server.dataDir);
  if (!credentials) throw new Error("no embedded database credentials");
  const databaseUrl = embeddedUrl(credentials, port + 1000, "versus");
  process.env.DATABASE_URL = databaseUrl;
  const { createPrismaClient } = await import("../../server/db/client");
  const { createProject } = await import("../../server/projects/projects");
  const db = createPrismaClient(databaseUrl);
  const created = await createProject(db, { ...project, description: "" });
  const user = await db.user.create({ data: { email: "bench@example.test", name: "bench" } });
  return { db, databaseUrl, project: created, user };
}
