// What the API fuzz needs in the database before it starts, made the way users make it: a
// project with an experiment whose variants run a workload (so batches queue jobs), its API key
// and enrollment token (services, as the dashboard does), an agent enrolled over REST with that
// token, runs on several commits uploaded over REST (so comparison, history, check and badge
// answer 200 rather than 404), and one job this agent has leased (so lease, complete, fail and
// release reach their handlers' bodies, not only the 404 of an unknown id).
import crypto from "node:crypto";
import type { Db } from "~/server/db/client";
import { createApiKey } from "~/server/projects/api-keys";
import { runBatch, sleepProject } from "../reliability/fixtures";

export interface FuzzTargets {
  projectSlug: string;
  apiKey: string;
  enrollmentToken: string;
  agentName: string;
  agentCredential: string;
  experimentSlug: string;
  /** A metric with runs, and its badge file name. */
  metric: string;
  variants: string[];
  commits: string[];
  branch: string;
  leasedJob: { id: string; leaseToken: string };
}

async function call(baseUrl: string, path: string, token: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`setting up the fuzz: POST ${path} answered ${response.status}: ${text}`);
  return text ? JSON.parse(text) : undefined;
}

export async function prepareFuzzTargets(db: Db, baseUrl: string): Promise<FuzzTargets> {
  // Jobs enough that no claim the fuzzer sends finds the queue empty (and long-polls 30 s).
  const project = await sleepProject(db, "fuzz", { sleepMs: 1, measuredRuns: 300 });
  const apiKey = (await createApiKey(db, project.slug, "api fuzz")).secret;
  // A name the fuzzer will not hit by chance: registering it again would rotate the credential.
  const agentName = `fuzz-agent-${crypto.randomBytes(6).toString("hex")}`;
  const registered = (await call(baseUrl, "/api/v1/agents/register", project.token, {
    name: agentName,
    kind: "other",
    version: "1.0.0",
    capabilities: ["sleep"],
  })) as { credential: string };

  const metric = "slept_ms";
  const commits = ["c0ffee01", "c0ffee02", "c0ffee03", "c0ffee04"];
  const branch = "main";
  const runs = commits.flatMap((gitCommit, c) =>
    ["A", "B"].flatMap((variant, v) =>
      [0, 1, 2].map((r) => ({
        variant,
        gitCommit,
        gitBranch: branch,
        metrics: [{ key: metric, unit: "ms", samples: [10 + c + v + r / 10, 11 + c + v, 12 + c + r] }],
      })),
    ),
  );
  await call(baseUrl, "/api/v1/results", apiKey, { experiment: project.experimentSlug, runs });

  await runBatch(db, project);
  const claimed = await fetch(`${baseUrl}/api/v1/jobs/claim?wait=0`, { method: "POST", headers: { authorization: `Bearer ${registered.credential}` } });
  if (claimed.status !== 200) throw new Error(`setting up the fuzz: the agent could not claim a job (${claimed.status} ${await claimed.text()})`);
  const { job } = (await claimed.json()) as { job: { id: string; leaseToken: string } };

  return {
    projectSlug: project.slug,
    apiKey,
    enrollmentToken: project.token,
    agentName,
    agentCredential: registered.credential,
    experimentSlug: project.experimentSlug,
    metric,
    variants: ["A", "B"],
    commits,
    branch,
    leasedJob: { id: job.id, leaseToken: job.leaseToken },
  };
}
