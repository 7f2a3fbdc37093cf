// The local agents of `npm start`: the Go agent (or the reference agent without Go) running beside
// the web server, and the JVM agent for the workloads only it has where Java is installed, each
// enrolled in one project (the Examples project unless VERSUS_LOCAL_AGENT_PROJECT says otherwise),
// so "Run" on an example works on a fresh installation with nothing else to set up. Each keeps its
// credential and unsent results in a folder of its own under the data dir (its slot). This module
// decides whether one can start and with what, and tells its supervisor (./agent-supervisor.ts,
// which runs it) when a user resumed it after stopping it on the Agents page.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadCredential } from "../../agents/reference/agent/credential";
import { hashSecret } from "../../server/auth/secret-tokens";
import type { Db } from "../../server/db/client";
import { resumeAgent } from "../../server/agents/agent-admin";
import { createEnrollmentToken } from "../../server/agents/enrollment-tokens";

export interface LocalAgentFiles {
  dir: string;
  credentialFile: string;
  bufferDir: string;
}

export type LocalAgentPlan =
  | { start: true; name: string; files: LocalAgentFiles; /** Only when it must enroll (first start, or a new database). */ enrollmentToken?: string }
  | { start: false; reason: string };

export const LOCAL_AGENT_TOKEN_NAME = "Local agent (npm start)";

/** Where a local agent keeps its files, what it is called and what its enrollment token is named. */
export interface LocalAgentSlot {
  folder: string;
  namePrefix: string;
  tokenName: string;
}

export const MAIN_SLOT: LocalAgentSlot = { folder: "local-agent", namePrefix: "local", tokenName: LOCAL_AGENT_TOKEN_NAME };
export const JVM_SLOT: LocalAgentSlot = { folder: "local-jvm-agent", namePrefix: "local-jvm", tokenName: "Local JVM agent (npm start)" };

export function localAgentFiles(dataDir: string, slot: LocalAgentSlot = MAIN_SLOT): LocalAgentFiles {
  const dir = path.resolve(dataDir, slot.folder);
  return { dir, credentialFile: path.join(dir, "credential.json"), bufferDir: path.join(dir, "buffer") };
}

/** One name per machine, so two installations sharing a database do not take each other's agent. */
export function localAgentName(slot: LocalAgentSlot = MAIN_SLOT): string {
  return `${slot.namePrefix}-${os.hostname()}`.slice(0, 100);
}

export async function prepareLocalAgent(db: Db, options: { dataDir: string; projectSlug: string; slot?: LocalAgentSlot; now?: Date }): Promise<LocalAgentPlan> {
  const slot = options.slot ?? MAIN_SLOT;
  const files = localAgentFiles(options.dataDir, slot);
  const name = localAgentName(slot);
  const project = await db.project.findUnique({ where: { slug: options.projectSlug }, select: { id: true } });
  if (!project) {
    return {
      start: false,
      reason: `there is no project "${options.projectSlug}" for it (set VERSUS_LOCAL_AGENT_PROJECT to a project's slug, or VERSUS_LOCAL_AGENT=0)`,
    };
  }
  const saved = await loadCredential(files.credentialFile).catch(() => undefined);
  if (saved) {
    const agent = await db.agent.findUnique({
      where: { tokenHash: hashSecret(saved.credential) },
      select: { id: true, projectId: true, revokedAt: true, stopRequested: true },
    });
    if (agent?.revokedAt) return { start: false, reason: "it was revoked on the Agents page (VERSUS_LOCAL_AGENT=0 silences this message)" };
    if (agent?.projectId === project.id) {
      // Stopped on the Agents page: a new `npm start` brings it back, as Resume there would.
      if (agent.stopRequested) await resumeAgent(db, agent.projectId, agent.id);
      return { start: true, name, files };
    }
  }
  // No credential yet, or one this database does not know (a new database, another project):
  // enroll with a short-lived token of Versus's own.
  fs.rmSync(files.credentialFile, { force: true });
  const token = await createEnrollmentToken(db, project.id, null, {
    name: slot.tokenName,
    expiresAt: new Date((options.now ?? new Date()).getTime() + 24 * 60 * 60 * 1000),
  });
  return { start: true, name, files, enrollmentToken: token.secret };
}

/** How often a stopped local agent's row is read, to start it again once resumed: it is not running, so nothing else tells it. */
const RESUME_POLL_MS = 3000;

/**
 * Resolves true once the local agent (stopped on the Agents page: it exited) is resumed there;
 * false when it is revoked or its credential is gone meanwhile, or `signal` aborts.
 */
export async function waitUntilResumed(db: Db, files: LocalAgentFiles, signal: AbortSignal): Promise<boolean> {
  while (!signal.aborted) {
    const saved = await loadCredential(files.credentialFile).catch(() => undefined);
    if (!saved) return false;
    const agent = await db.agent.findUnique({ where: { tokenHash: hashSecret(saved.credential) }, select: { revokedAt: true, stopRequested: true } });
    if (!agent || agent.revokedAt) return false;
    if (!agent.stopRequested) return true;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener("abort", done);
        resolve();
      };
      const timer = setTimeout(done, RESUME_POLL_MS);
      signal.addEventListener("abort", done);
    });
  }
  return false;
}
