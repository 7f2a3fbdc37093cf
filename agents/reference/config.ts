// The agent's configuration: command-line flags first, then environment variables, then
// defaults. Checked once at start; a bad value names the flag and the variable.
import os from "node:os";
import path from "node:path";
import { Command } from "commander";
import { z } from "zod";
import type { AgentConfig } from "./agent/agent";
import { ConfigError } from "./config-error";
import { readGitSource } from "./git-commit";

const LABEL_KEY = /^[A-Za-z0-9_.-]{1,63}$/;

/** "pool=lab,os=linux" (or repeated --label pool=lab) into {pool: "lab", os: "linux"}. */
export function parseLabels(pairs: readonly string[]): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const pair of pairs
    .flatMap((item) => item.split(","))
    .map((item) => item.trim())
    .filter(Boolean)) {
    const at = pair.indexOf("=");
    if (at <= 0) throw new ConfigError(`label "${pair}" is not key=value`);
    const key = pair.slice(0, at).trim();
    if (!LABEL_KEY.test(key)) throw new ConfigError(`label key "${key}": use 1-63 letters, digits and _ . -`);
    labels[key] = pair.slice(at + 1).trim();
  }
  return labels;
}

const ZConfig = z.object({
  url: z.url({ error: "--url / VERSUS_URL must be the server's address, e.g. http://localhost:3000" }),
  enrollmentToken: z.string().trim().startsWith("venr_", "--enrollment-token / VERSUS_ENROLLMENT_TOKEN must be a venr_… token").optional(),
  name: z.string().trim().min(1).max(100, "--name / VERSUS_AGENT_NAME must be at most 100 characters"),
  credentialFile: z.string().min(1),
  bufferDir: z.string().min(1),
  shutdownGraceSeconds: z.coerce.number({ error: "--shutdown-grace / VERSUS_AGENT_SHUTDOWN_GRACE_SECONDS must be a number" }).min(0),
  claimJitterMs: z.coerce.number().min(0).default(1000),
});

export function readConfig(argv: readonly string[], env: Record<string, string | undefined> = process.env): AgentConfig {
  const stateDir = path.join(os.homedir(), ".versus-agent");
  const program = new Command("versus-reference-agent")
    .description("The Versus reference agent: claims jobs, runs workloads (gzip, sleep), reports runs. See docs/agent-protocol.md.")
    .option("--url <url>", "Versus server address (VERSUS_URL)")
    .option("--enrollment-token <token>", "venr_… token from the project's Agents page, used once to enroll (VERSUS_ENROLLMENT_TOKEN)")
    .option("--name <name>", "agent name, unique in the project (VERSUS_AGENT_NAME; default: the host name)")
    .option(
      "--label <key=value>",
      "a label jobs can require, repeatable (VERSUS_AGENT_LABELS=k=v,k=v)",
      (value: string, list: string[]) => [...list, value],
      [],
    )
    .option("--credential-file <path>", `where the credential is kept, mode 0600 (VERSUS_AGENT_CREDENTIAL_FILE; default ${stateDir}/credential.json)`)
    .option("--buffer-dir <path>", `results not yet acknowledged (VERSUS_AGENT_BUFFER_DIR; default ${stateDir}/buffer)`)
    .option(
      "--shutdown-grace <seconds>",
      "on SIGTERM, how long a running job may take to finish before it is released (VERSUS_AGENT_SHUTDOWN_GRACE_SECONDS; default 10)",
    )
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text) });
  program.parse([...argv], { from: "user" });
  const flags = program.opts<{
    url?: string;
    enrollmentToken?: string;
    name?: string;
    label: string[];
    credentialFile?: string;
    bufferDir?: string;
    shutdownGrace?: string;
  }>();

  const parsed = ZConfig.safeParse({
    url: flags.url ?? env.VERSUS_URL,
    enrollmentToken: flags.enrollmentToken ?? (env.VERSUS_ENROLLMENT_TOKEN || undefined),
    name: flags.name ?? env.VERSUS_AGENT_NAME ?? os.hostname(),
    credentialFile: flags.credentialFile ?? env.VERSUS_AGENT_CREDENTIAL_FILE ?? path.join(stateDir, "credential.json"),
    bufferDir: flags.bufferDir ?? env.VERSUS_AGENT_BUFFER_DIR ?? path.join(stateDir, "buffer"),
    shutdownGraceSeconds: flags.shutdownGrace ?? env.VERSUS_AGENT_SHUTDOWN_GRACE_SECONDS ?? 10,
    claimJitterMs: env.VERSUS_AGENT_CLAIM_JITTER_MS,
  });
  if (!parsed.success)
    throw new ConfigError(parsed.error.issues.map((issue) => (issue.path.length ? `${issue.path.join(".")}: ${issue.message}` : issue.message)).join("; "));
  const labels = { os: process.platform, arch: process.arch, ...parseLabels([...(env.VERSUS_AGENT_LABELS ? [env.VERSUS_AGENT_LABELS] : []), ...flags.label]) };
  return { ...parsed.data, url: parsed.data.url.replace(/\/+$/, ""), labels, git: readGitSource(env) };
}
