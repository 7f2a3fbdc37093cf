// The reference agent (agents/reference) as a child process enrolled in a test's project and seen
// by the server: what integration tests that need a real agent running their batches start with.
import crypto from "node:crypto";
import type { Db } from "~/server/db/client";
import { eventually, startAgent, type Child } from "./reliability/processes";

export async function enrolledReferenceAgent(db: Db, url: string, project: { id: string; token: string }, label: string): Promise<Child> {
  const agent = startAgent({ url, enrollmentToken: project.token, name: `${label}-${crypto.randomBytes(3).toString("hex")}` });
  // (eventually waits while the check gives undefined or false: findFirst gives null.)
  await eventually(
    "the reference agent to enroll",
    async () => (await db.agent.findFirst({ where: { projectId: project.id, lastSeenAt: { not: null } } })) ?? undefined,
    { context: () => agent.tail() },
  );
  return agent;
}
