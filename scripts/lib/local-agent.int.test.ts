// What `npm start` gives its local agent: a fresh enrollment token of the chosen project when it
// has no credential the database knows, nothing new when it has one (resumed, when a user had
// stopped it), and no start at all when the project is missing or the agent was revoked; and when
// a stopped local agent is resumed on the Agents page, its supervisor hears of it.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { saveCredential } from "../../agents/reference/agent/credential";
import { hashSecret } from "../../server/auth/secret-tokens";
import { createPrismaClient } from "../../server/db/client";
import { verifyEnrollmentToken } from "../../server/agents/enrollment-tokens";
import { createProject } from "../../server/projects/projects";
import { resumeAgent, revokeAgent } from "../../server/agents/agent-admin";
import { JVM_SLOT, LOCAL_AGENT_TOKEN_NAME, localAgentFiles, localAgentName, prepareLocalAgent, waitUntilResumed } from "./local-agent";

const db = createPrismaClient(inject("databaseUrl"));
const slug = `local-agent-${crypto.randomBytes(3).toString("hex")}`;
let projectId: string;
let dataDir: string;

beforeAll(async () => {
  projectId = (await createProject(db, { name: "Local agent test", slug, description: "" })).id;
});
afterAll(async () => {
  await db.project.delete({ where: { id: projectId } });
  await db.$disconnect();
});
afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

function freshDataDir() {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "versus-local-agent-"));
  return dataDir;
}

/** An agent of the project whose credential is saved where the local agent keeps it. */
async function enrolledAgent(options: { revoked?: boolean; stopped?: boolean; inDatabase?: boolean } = {}): Promise<string | undefined> {
  const credential = `vsag_${crypto.randomBytes(16).toString("hex")}`;
  let agentId: string | undefined;
  if (options.inDatabase ?? true) {
    ({ id: agentId } = await db.agent.create({
      data: {
        projectId,
        name: `agent-${crypto.randomBytes(3).toString("hex")}`,
        kind: "other",
        version: "0.1.0",
        capabilities: ["gzip"],
        tokenHash: hashSecret(credential),
        revokedAt: options.revoked ? new Date() : null,
        stopRequested: options.stopped ?? false,
      },
    }));
  }
  await saveCredential(localAgentFiles(dataDir).credentialFile, {
    url: "http://127.0.0.1:1",
    agentId: "a",
    name: "n",
    project: slug,
    credential,
    heartbeatIntervalSeconds: 10,
    claimWaitSeconds: 30,
  });
  return agentId;
}

describe("prepareLocalAgent", () => {
  it("enrolls on first start with a one-day token of the project, made by Versus itself", async () => {
    const plan = await prepareLocalAgent(db, { dataDir: freshDataDir(), projectSlug: slug });
    expect(plan).toMatchObject({ start: true, name: localAgentName(), files: localAgentFiles(dataDir) });
    const token = plan.start ? plan.enrollmentToken : undefined;
    expect(token).toMatch(/^venr_/);
    expect((await verifyEnrollmentToken(db, token!)).projectId).toBe(projectId);
    const stored = await db.agentEnrollmentToken.findFirstOrThrow({ where: { tokenHash: hashSecret(token!) } });
    expect(stored).toMatchObject({ name: LOCAL_AGENT_TOKEN_NAME, createdById: null });
    const hours = (stored.expiresAt!.getTime() - stored.createdAt.getTime()) / 3_600_000;
    expect(Math.round(hours)).toBe(24);
  });

  it("gives the JVM agent a folder, a name and a token of its own beside the main one", async () => {
    const dir = freshDataDir();
    const main = await prepareLocalAgent(db, { dataDir: dir, projectSlug: slug });
    const jvm = await prepareLocalAgent(db, { dataDir: dir, projectSlug: slug, slot: JVM_SLOT });
    expect(jvm).toMatchObject({ start: true, name: localAgentName(JVM_SLOT), files: localAgentFiles(dir, JVM_SLOT) });
    expect(localAgentName(JVM_SLOT)).not.toBe(localAgentName());
    expect(localAgentFiles(dir, JVM_SLOT).dir).toBe(path.resolve(dir, "local-jvm-agent"));
    const token = jvm.start ? jvm.enrollmentToken : undefined;
    const stored = await db.agentEnrollmentToken.findFirstOrThrow({ where: { tokenHash: hashSecret(token!) } });
    expect(stored.name).toBe("Local JVM agent (npm start)");
    expect(main.start && main.enrollmentToken).not.toBe(token);
  });

  it("starts with the saved credential when the database knows it, without a new token", async () => {
    freshDataDir();
    await enrolledAgent();
    const tokensBefore = await db.agentEnrollmentToken.count({ where: { projectId } });
    const plan = await prepareLocalAgent(db, { dataDir, projectSlug: slug });
    expect(plan).toEqual({ start: true, name: localAgentName(), files: localAgentFiles(dataDir) });
    expect(await db.agentEnrollmentToken.count({ where: { projectId } })).toBe(tokensBefore);
  });

  it("enrolls again when the saved credential is unknown to this database (a new database)", async () => {
    freshDataDir();
    await enrolledAgent({ inDatabase: false });
    const plan = await prepareLocalAgent(db, { dataDir, projectSlug: slug });
    expect(plan.start && plan.enrollmentToken).toMatch(/^venr_/);
    expect(fs.existsSync(localAgentFiles(dataDir).credentialFile)).toBe(false);
  });

  it("resumes an agent a user stopped, so the next npm start brings it back with the credential it has", async () => {
    freshDataDir();
    const agentId = await enrolledAgent({ stopped: true });
    const tokensBefore = await db.agentEnrollmentToken.count({ where: { projectId } });
    const plan = await prepareLocalAgent(db, { dataDir, projectSlug: slug });
    expect(plan).toEqual({ start: true, name: localAgentName(), files: localAgentFiles(dataDir) });
    expect(await db.agentEnrollmentToken.count({ where: { projectId } })).toBe(tokensBefore);
    expect(await db.agent.findUniqueOrThrow({ where: { id: agentId }, select: { stopRequested: true } })).toEqual({ stopRequested: false });
  });

  it("does not start an agent a user revoked", async () => {
    freshDataDir();
    await enrolledAgent({ revoked: true });
    expect(await prepareLocalAgent(db, { dataDir, projectSlug: slug })).toEqual({
      start: false,
      reason: "it was revoked on the Agents page (VERSUS_LOCAL_AGENT=0 silences this message)",
    });
  });

  it("does not start without the project", async () => {
    const plan = await prepareLocalAgent(db, { dataDir: freshDataDir(), projectSlug: "no-such-project" });
    expect(plan).toEqual({
      start: false,
      reason: 'there is no project "no-such-project" for it (set VERSUS_LOCAL_AGENT_PROJECT to a project\'s slug, or VERSUS_LOCAL_AGENT=0)',
    });
  });
});

describe("waitUntilResumed", () => {
  it("resolves true once a user resumes the stopped agent, false once one revokes it", async () => {
    freshDataDir();
    const agentId = (await enrolledAgent({ stopped: true })) as string;
    const files = localAgentFiles(dataDir);
    const waiting = waitUntilResumed(db, files, new AbortController().signal);
    await resumeAgent(db, projectId, agentId);
    expect(await waiting).toBe(true);

    await db.agent.update({ where: { id: agentId }, data: { stopRequested: true } });
    const revoked = waitUntilResumed(db, files, new AbortController().signal);
    await revokeAgent(db, projectId, agentId);
    expect(await revoked).toBe(false);
  });

  it("stops waiting when told to", async () => {
    freshDataDir();
    await enrolledAgent({ stopped: true });
    const abort = new AbortController();
    const waiting = waitUntilResumed(db, localAgentFiles(dataDir), abort.signal);
    abort.abort();
    expect(await waiting).toBe(false);
  });
});
