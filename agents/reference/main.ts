// Entry point: `npx tsx agents/reference/main.ts --url http://localhost:3000 --enrollment-token venr_…`
// (or the same through VERSUS_URL and VERSUS_ENROLLMENT_TOKEN). The first SIGTERM or SIGINT
// stops gracefully (see agent/agent.ts); a second one exits at once.
import { Agent, EXIT_CONFIG } from "./agent/agent";
import { ConfigError } from "./config-error";
import { readConfig } from "./config";
import { createLogger } from "./log";
import { builtInWorkloads } from "./workloads/registry";

const log = createLogger();

let config;
try {
  config = readConfig(process.argv.slice(2));
} catch (error) {
  // commander already printed --help or its own complaint.
  if (error instanceof ConfigError) log.error("agent.bad_config", { reason: error.message });
  const code = (error as { exitCode?: number }).exitCode;
  process.exit(error instanceof ConfigError ? EXIT_CONFIG : (code ?? EXIT_CONFIG));
}

const agent = new Agent(config, builtInWorkloads(), log);
let signals = 0;
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => {
    if (++signals > 1) process.exit(130);
    agent.stop(signal);
  });
}

// Started by a parent with an IPC channel (the local agent of `npm start`): when the parent goes
// away without stopping us, stop rather than run on unsupervised.
if (process.connected) process.once("disconnect", () => agent.stop("the parent process exited"));

agent.run().then(
  (code) => process.exit(code),
  (error: unknown) => {
    log.error("agent.crashed", { error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    process.exit(1);
  },
);
