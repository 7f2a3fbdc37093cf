// The server's answers, read by the reference agent's own response schemas
// (agents/reference/api/protocol.ts, written from docs/agent-protocol.md): a field the server
// names differently from the document shows up here as a parse error, not as an agent that
// cannot understand its jobs.
import { afterAll, expect, inject, it } from "vitest";
import {
  ZClaimResponse,
  ZCompleteResponse,
  ZFailResponse,
  ZHeartbeatResponse,
  ZLeaseResponse,
  ZRegisterResponse,
  ZReleaseResponse,
} from "~/agents/reference/api/protocol";
import { builtInWorkloads } from "~/agents/reference/workloads/registry";
import { createPrismaClient } from "~/server/db/client";
import { agentApi, batchOf, jobsProject } from "./agent-protocol";

const db = createPrismaClient(inject("databaseUrl"));
afterAll(() => db.$disconnect());

function parsed<T>(
  schema: { safeParse(value: unknown): { success: true; data: T } | { success: false; error: { issues: unknown[] } } },
  reply: { status: number; body: unknown },
): T {
  const result = schema.safeParse(reply.body);
  if (!result.success) throw new Error(`the reference agent cannot read ${JSON.stringify(reply.body)}: ${JSON.stringify(result.error.issues)}`);
  return result.data;
}

it("every answer of the protocol parses as the reference agent reads it, with the job's workload as {name, settings}", async () => {
  const workloads = builtInWorkloads();
  const project = await jobsProject(db, "contract", {
    measuredRuns: 1,
    variants: [
      { name: "A", isBaseline: true, config: { workload: "sleep", settings: { ms: 5 } } },
      { name: "B", isBaseline: false, config: { workload: "sleep", settings: { ms: 6 } } },
    ],
    // What the sleep workload reports: Run refuses a metric its agents never report.
    metrics: [{ key: "slept_ms", unit: "ms", direction: "lower_is_better" }],
  });
  const registered = await agentApi.register(project.token, {
    name: "contract",
    kind: "other",
    version: "0.1.0",
    capabilities: workloads.names(),
    labels: {},
    workloads: workloads.adverts(),
    environment: {},
  });
  expect(registered.status).toBe(201);
  const { credential } = parsed(ZRegisterResponse, registered);
  parsed(ZHeartbeatResponse, await agentApi.heartbeat(credential, { runningJobIds: [] }));
  await batchOf(db, project);

  const first = parsed(ZClaimResponse, await agentApi.claim(credential, 0)).job;
  expect(first.workload).toEqual({ name: "sleep", settings: { ms: 5 } });
  expect(first).toMatchObject({ experiment: { slug: project.experimentSlug }, variant: { name: "A" }, warmup: false, attempt: 1 });
  expect(first.metrics).toEqual([expect.objectContaining({ key: "slept_ms", unit: "ms", direction: "lower_is_better" })]);
  parsed(ZLeaseResponse, await agentApi.lease(credential, first.id, { leaseToken: first.leaseToken }));
  const completed = parsed(
    ZCompleteResponse,
    await agentApi.complete(credential, first.id, { leaseToken: first.leaseToken, run: { metrics: [{ key: "slept_ms", samples: [1, 2] }] } }),
  );
  expect(completed.run?.id).toEqual(expect.any(String));

  const second = parsed(ZClaimResponse, await agentApi.claim(credential, 0)).job;
  expect(second.workload).toEqual({ name: "sleep", settings: { ms: 6 } });
  parsed(ZReleaseResponse, await agentApi.release(credential, second.id, { leaseToken: second.leaseToken }));
  const again = parsed(ZClaimResponse, await agentApi.claim(credential, 0)).job;
  parsed(ZFailResponse, await agentApi.fail(credential, again.id, { leaseToken: again.leaseToken, error: "contract test", retryable: false }));
});
