// Shared by the agent protocol's integration tests: a project with an experiment whose variants
// have workloads, enrollment tokens, agents registered over the real route handlers, and calls
// of every agent route with real Request objects, exactly as Next.js makes them.
import crypto from "node:crypto";
import { expect } from "vitest";
import { POST as heartbeatRoute } from "~/app/api/v1/agents/heartbeat/route";
import { POST as registerRoute } from "~/app/api/v1/agents/register/route";
import { POST as completeRoute } from "~/app/api/v1/jobs/[id]/complete/route";
import { POST as failRoute } from "~/app/api/v1/jobs/[id]/fail/route";
import { POST as leaseRoute } from "~/app/api/v1/jobs/[id]/lease/route";
import { POST as readyRoute } from "~/app/api/v1/jobs/[id]/ready/route";
import { POST as releaseRoute } from "~/app/api/v1/jobs/[id]/release/route";
import { POST as claimRoute } from "~/app/api/v1/jobs/claim/route";
import type { Db } from "~/server/db/client";
import { startBatch } from "~/server/agents/batches";
import type { TClaimedJob, TReadyReply } from "~/server/schemas/jobs";
import { ZExperimentInput, type TExperimentFormValues } from "~/server/schemas/experiment";
import { createEnrollmentToken } from "~/server/agents/enrollment-tokens";
import { createExperiment } from "~/server/experiments/experiments";
import { createProject } from "~/server/projects/projects";
import { projectWithOwner, type TestProject } from "./project-members";

export const uniqueSuffix = () => crypto.randomBytes(4).toString("hex");
const BASE = "http://test.local/api/v1";

export interface Reply<T = unknown> {
  status: number;
  body: T;
}

async function replyOf<T>(response: Response): Promise<Reply<T>> {
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
}

function request(path: string, credential: string | null, body?: unknown, signal?: AbortSignal): Request {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (credential) headers.authorization = `Bearer ${credential}`;
  return new Request(`${BASE}${path}`, {
    method: "POST",
    headers,
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    signal,
  });
}

const params = (id: string) => ({ params: Promise.resolve({ id }) });

/** Every agent call, as an agent makes it over HTTP. */
export const agentApi = {
  register: (token: string | null, body: unknown) => registerRoute(request("/agents/register", token, body)).then(replyOf<RegisterBody>),
  heartbeat: (credential: string | null, body: unknown = {}) => heartbeatRoute(request("/agents/heartbeat", credential, body)).then(replyOf<HeartbeatBody>),
  claim: (credential: string | null, wait = 0, signal?: AbortSignal) =>
    claimRoute(request(`/jobs/claim?wait=${wait}`, credential, undefined, signal)).then(replyOf<{ job: TClaimedJob } | null>),
  lease: (credential: string, jobId: string, body: unknown) =>
    leaseRoute(request(`/jobs/${jobId}/lease`, credential, body), params(jobId)).then(replyOf<{ leaseExpiresAt: string; cancelRequested: boolean }>),
  ready: (credential: string, jobId: string, body: unknown) =>
    readyRoute(request(`/jobs/${jobId}/ready`, credential, body), params(jobId)).then(replyOf<TReadyReply & ErrorReply>),
  complete: (credential: string, jobId: string, body: unknown) =>
    completeRoute(request(`/jobs/${jobId}/complete`, credential, body), params(jobId)).then(replyOf<CompleteBody>),
  fail: (credential: string, jobId: string, body: unknown) =>
    failRoute(request(`/jobs/${jobId}/fail`, credential, body), params(jobId)).then(replyOf<{ status: string; retryAt?: string }>),
  release: (credential: string, jobId: string, body: unknown) =>
    releaseRoute(request(`/jobs/${jobId}/release`, credential, body), params(jobId)).then(replyOf<{ status: string }>),
};

export interface RegisterBody {
  agent: { id: string; name: string; project: string };
  credential: string;
  heartbeatIntervalSeconds: number;
  claimWaitSeconds: number;
  leaseSeconds: number;
}
export interface HeartbeatBody {
  cancelJobIds: string[];
  stop: boolean;
  heartbeatIntervalSeconds: number;
}
export interface CompleteBody {
  run: { id: string; repetition: number; url: string } | null;
  replayed: boolean;
}
export interface ErrorReply {
  error: { code: string; message: string; details?: { fields: { path: (string | number)[]; message: string }[] } };
}

export interface JobsProject {
  id: string;
  slug: string;
  /** An enrollment token's secret. */
  token: string;
  experimentSlug: string;
}

type VariantValues = TExperimentFormValues["variants"][number];

/**
 * A project with an experiment "A vs B": variants A (baseline) and B running workload "noop"
 * unless `variants` says otherwise, one metric "latency" (ms, lower is better) unless `metrics` does.
 */
export async function jobsProject(
  db: Db,
  label: string,
  options: { variants?: VariantValues[]; metrics?: TExperimentFormValues["metrics"]; warmupRuns?: number; measuredRuns?: number } = {},
): Promise<JobsProject> {
  const slug = `jobs-${label}-${uniqueSuffix()}`;
  const project = await createProject(db, { name: slug, slug, description: "" });
  const experiment = await createExperiment(
    db,
    slug,
    ZExperimentInput.parse({
      title: "A vs B",
      slug: "a-vs-b",
      warmupRuns: options.warmupRuns ?? 0,
      measuredRuns: options.measuredRuns ?? 2,
      variants: options.variants ?? [
        { name: "A", isBaseline: true, config: { workload: "noop", settings: { size: 1 } } },
        { name: "B", isBaseline: false, config: { workload: "noop", settings: { size: 2 } } },
      ],
      metrics: options.metrics ?? [{ key: "latency", unit: "ms", direction: "lower_is_better" }],
    }),
  );
  const member = await db.user.create({ data: { email: `${slug}@example.test`, name: label } });
  const token = await createEnrollmentToken(db, project.id, member.id, { name: "test token", expiresAt: null });
  return { id: project.id, slug, token: token.secret, experimentSlug: experiment.slug };
}

export interface TestAgent {
  id: string;
  name: string;
  credential: string;
}

/** Registers an agent over the real route; it can run "noop" unless told otherwise. */
export async function registeredAgent(project: JobsProject, overrides: Record<string, unknown> = {}): Promise<TestAgent> {
  const name = (overrides.name as string | undefined) ?? `agent-${uniqueSuffix()}`;
  const reply = await agentApi.register(project.token, { name, kind: "other", version: "1.0.0", capabilities: ["noop"], ...overrides });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return { id: reply.body.agent.id, name, credential: reply.body.credential };
}

/** Starts a batch of the project's experiment (interleaved unless told otherwise). */
export function batchOf(db: Db, project: JobsProject, input: Partial<Parameters<typeof startBatch>[3]> = {}) {
  return startBatch(db, project.id, null, { experimentSlug: project.experimentSlug, order: "interleaved", labels: {}, maxAttempts: 3, ...input });
}

/** Claims without waiting and expects a job. */
export async function claimed(agent: TestAgent): Promise<TClaimedJob> {
  const reply = await agentApi.claim(agent.credential, 0);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return (reply.body as { job: TClaimedJob }).job;
}

/** Claims and completes every job offered until none is left; each run's latency is value(job, i), three samples of it. */
export async function completeAll(agent: TestAgent, value: (job: TClaimedJob, i: number) => number) {
  for (let i = 0; ; i++) {
    const reply = await agentApi.claim(agent.credential, 0);
    if (reply.status === 204) return;
    const job = (reply.body as { job: TClaimedJob }).job;
    const v = value(job, i);
    const done = await agentApi.complete(agent.credential, job.id, { leaseToken: job.leaseToken, run: { metrics: [{ key: "latency", samples: [v, v, v] }] } });
    expect(done.status, JSON.stringify(done.body)).toBe(201);
  }
}

/** A valid one-metric run for the test experiment. */
export const goodRun = (value = 10) => ({ metrics: [{ key: "latency", samples: [value, value + 1, value + 2] }] });

/** Makes a job's lease expire now, as if its agent had stopped renewing it. */
export async function expireLease(db: Db, jobId: string) {
  await db.job.update({ where: { id: jobId }, data: { leaseExpiresAt: new Date(Date.now() - 1000) } });
}

/** A project made through tRPC by its owner, and an enrollment token of it to register agents with. */
export async function projectForAgents(db: Db, label: string): Promise<{ project: TestProject; jobs: JobsProject }> {
  const project = await projectWithOwner(db, label);
  const token = await project.owner.caller.enrollmentToken.create({ projectSlug: project.slug, name: "lab", expiresAt: null });
  return { project, jobs: { id: project.id, slug: project.slug, token: token.secret, experimentSlug: "" } };
}
