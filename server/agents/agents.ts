// What agents call about themselves (docs/agent-protocol.md): register with an enrollment token
// for a credential of their own, authenticate every later call with it, and heartbeat.
// The credential is shown once and stored as a SHA-256; revoking the agent refuses its next call.
import { newSecret, presentedSecret } from "../auth/secret-tokens";
import { type Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { preparedQuery } from "../db/prepared-statements";
import { isUniqueViolation } from "../db/prisma-errors";
import { formatDateTime } from "../display/display";
import { AppError } from "../core/errors";
import { CLAIM_WAIT_SECONDS, HEARTBEAT_INTERVAL_SECONDS, LEASE_SECONDS } from "./timing";
import type { TAgentRegister, TAgentRegistered, THeartbeat, THeartbeatReply } from "../schemas/agents";
import type { TWorkloadAdvert } from "../schemas/workload";
import { verifyEnrollmentToken } from "./enrollment-tokens";
import { storedAdvert } from "../workloads/workload-order";

export const AGENT_CREDENTIAL_KIND = "vsag_";

/** Who is calling: the agent a credential belongs to. */
export interface AgentPrincipal {
  agentId: string;
  name: string;
  projectId: string;
  projectSlug: string;
  stopRequested: boolean;
}

/** What an agent can run: what it says, plus the names of the workloads it advertises. */
function capabilitiesOf(capabilities: string[], workloads: TWorkloadAdvert[]): string[] {
  return [...new Set([...capabilities, ...workloads.map((w) => w.name)])];
}

/**
 * Enrolls an agent with an enrollment token (`venr_…`), or rotates the credential of the agent of
 * that name in the token's project (it lost its credential file): the old credential stops
 * working. A revoked agent's name is not taken again: 409.
 */
export async function registerAgent(db: Db, enrollmentSecret: string, input: TAgentRegister, now = new Date()): Promise<TAgentRegistered> {
  const { secret, prefix, hash } = newSecret(AGENT_CREDENTIAL_KIND);
  const fields = {
    kind: input.kind,
    version: input.version,
    capabilities: capabilitiesOf(input.capabilities, input.workloads),
    labels: input.labels,
    workloads: input.workloads.map(storedAdvert) as Prisma.InputJsonArray,
    environment: input.environment as Prisma.InputJsonObject,
    tokenHash: hash,
    credentialPrefix: prefix,
    stopRequested: false,
    lastSeenAt: now,
  };
  // Two first registrations of one name at once: the loser's insert violates the unique name,
  // and its second try finds the winner's row and rotates it.
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.$transaction(async (tx) => {
        const enrollment = await verifyEnrollmentToken(tx, enrollmentSecret, now);
        const existing = await tx.agent.findUnique({ where: { projectId_name: { projectId: enrollment.projectId, name: input.name } } });
        if (existing?.revokedAt) {
          throw new AppError("CONFLICT", `Agent "${input.name}" was revoked on ${formatDateTime(existing.revokedAt)}; enroll this machine under another name`, {
            fieldIssues: [{ path: ["name"], message: "a revoked agent has this name" }],
          });
        }
        const data = { ...fields, enrollmentTokenId: enrollment.tokenId };
        const agent = existing
          ? await tx.agent.update({ where: { id: existing.id }, data, include: { project: { select: { slug: true } } } })
          : await tx.agent.create({ data: { ...data, projectId: enrollment.projectId, name: input.name }, include: { project: { select: { slug: true } } } });
        return {
          agent: { id: agent.id, name: agent.name, project: agent.project.slug },
          credential: secret,
          heartbeatIntervalSeconds: HEARTBEAT_INTERVAL_SECONDS,
          claimWaitSeconds: CLAIM_WAIT_SECONDS,
          leaseSeconds: LEASE_SECONDS,
        };
      });
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= 2) throw error;
    }
  }
}

/** Seen-at is written at most this often: a busy agent must not turn every call into a write. */
const SEEN_RESOLUTION_MS = 5000;

/** What authenticating a credential reads of its agent. */
export interface AgentRow {
  id: string;
  name: string;
  projectId: string;
  projectSlug: string;
  revokedAt: Date | null;
  stopRequested: boolean;
  lastSeenAt: Date | null;
}

/** An agent credential as presented: the secret (admitAgent's hints say what else it might be) and its hash. */
export interface AgentCredential {
  secret: string;
  tokenHash: string;
}

/**
 * The agent row of a credential's hash, as SQL of its own or as the CTE `caller` of a larger
 * statement (queryAsAgent). With the project's slug: Prisma would fetch it separately.
 */
function agentRowSql(tokenHash: string): Prisma.Sql {
  return Prisma.sql`SELECT a."id", a."name", a."projectId", p."slug" AS "projectSlug", a."revokedAt", a."stopRequested", a."lastSeenAt"
    FROM "Agent" a JOIN "Project" p ON p."id" = a."projectId"
    WHERE a."tokenHash" = ${tokenHash}`;
}

/**
 * A call that reads its caller's agent row in the statement that does its work (claim and
 * complete, the calls agents make most: one round trip fewer), then admits the caller
 * (admitAgent). `statement` is what follows `WITH caller AS (…agent row…)`: further CTEs, each
 * after a comma, then a SELECT of caller.* and the call's own columns. The caller's principal and
 * the statement's row.
 */
export async function queryAsAgent<Row>(
  db: Db,
  credential: AgentCredential,
  statement: Prisma.Sql,
  now = new Date(),
): Promise<{ principal: AgentPrincipal; row: AgentRow & Row }> {
  const [row] = await preparedQuery<AgentRow & Row>(
    db,
    Prisma.sql`
    WITH caller AS (${agentRowSql(credential.tokenHash)})${statement}`,
  );
  const principal = await admitAgent(db, row, credential.secret, now);
  return { principal, row: row as AgentRow & Row };
}

/** Resolves `Authorization: Bearer vsag_…` to its agent, or throws 401 saying what is wrong. */
export async function authenticateAgent(db: Db, authorization: string | null, now = new Date()): Promise<AgentPrincipal> {
  const { secret, hash } = presentedSecret(authorization, "agent credential");
  const [agent] = await preparedQuery<AgentRow>(db, agentRowSql(hash));
  return admitAgent(db, agent, secret, now);
}

/**
 * The caller of a credential whose agent row was read (by authenticateAgent or queryAsAgent): 401
 * saying what is wrong for no agent or a revoked one; its seen-at kept current.
 */
async function admitAgent(db: Db, agent: AgentRow | undefined, secret: string, now = new Date()): Promise<AgentPrincipal> {
  if (!agent) {
    const hint = secret.startsWith("venr_")
      ? " (that is an enrollment token: register with it at POST /api/v1/agents/register and use the credential it returns)"
      : secret.startsWith("vs_")
        ? " (that is a project API key; agents use the vsag_… credential that register returned)"
        : " (register again with an enrollment token if the credential was lost or replaced)";
    throw new AppError("UNAUTHORIZED", `Unknown agent credential${hint}`);
  }
  if (agent.revokedAt) throw new AppError("UNAUTHORIZED", `Agent "${agent.name}" was revoked on ${formatDateTime(agent.revokedAt)}`);
  if (!agent.lastSeenAt || now.getTime() - agent.lastSeenAt.getTime() >= SEEN_RESOLUTION_MS) {
    await db.agent.update({ where: { id: agent.id }, data: { lastSeenAt: now } });
  }
  return { agentId: agent.id, name: agent.name, projectId: agent.projectId, projectSlug: agent.projectSlug, stopRequested: agent.stopRequested };
}

/**
 * Records a heartbeat: the fields given replace what Versus knows. The reply names the jobs
 * among `runningJobIds` the agent should stop (a user cancelled them, or they are no longer
 * leased to it) and whether it should exit.
 */
export async function recordHeartbeat(db: Db, principal: AgentPrincipal, input: THeartbeat, now = new Date()): Promise<THeartbeatReply> {
  const current = await db.agent.findUniqueOrThrow({ where: { id: principal.agentId }, select: { capabilities: true, workloads: true } });
  const workloads = input.workloads ?? (current.workloads as TWorkloadAdvert[]);
  const capabilities = input.capabilities || input.workloads ? capabilitiesOf(input.capabilities ?? current.capabilities, workloads) : undefined;
  const agent = await db.agent.update({
    where: { id: principal.agentId },
    data: {
      lastSeenAt: now,
      version: input.version,
      capabilities,
      labels: input.labels,
      workloads: input.workloads?.map(storedAdvert) as Prisma.InputJsonArray | undefined,
    },
    select: { stopRequested: true },
  });
  const running = input.runningJobIds.length
    ? await db.job.findMany({
        where: { id: { in: input.runningJobIds }, projectId: principal.projectId, agentId: principal.agentId, status: "leased", cancelRequested: false },
        select: { id: true },
      })
    : [];
  const stillMine = new Set(running.map((job) => job.id));
  return {
    cancelJobIds: input.runningJobIds.filter((id) => !stillMine.has(id)),
    stop: agent.stopRequested,
    heartbeatIntervalSeconds: HEARTBEAT_INTERVAL_SECONDS,
  };
}
