// Runs one claimed job's workload and decides what to report: a run, a failure, or nothing
// because the job was stopped from outside (cancelled, lease lost, shutdown). Knows nothing of
// HTTP; the caller reports the outcome.
import type { Job, RunReport } from "../api/protocol";
import { captureEnvironment } from "../environment";
import { captureGitCommit, type GitSource } from "../git-commit";
import { MemoryRecorder } from "../workloads/recorder";
import type { WorkloadRegistry } from "../workloads/registry";
import { runMetrics } from "./run-metrics";

/** Why a job was stopped from outside. */
export type StopReason = "cancelled" | "lease-lost" | "shutdown" | "unauthorized";

export type JobOutcome =
  | { kind: "complete"; run: RunReport; missingMetrics: string[] }
  | { kind: "fail"; error: string; retryable: boolean; logTail: string }
  | { kind: "stopped"; reason: StopReason };

export interface AgentIdentity {
  name: string;
  version: string;
}

export async function executeJob(
  job: Job,
  registry: WorkloadRegistry,
  signal: AbortSignal,
  agent: AgentIdentity,
  git: GitSource = { kind: "none" },
): Promise<JobOutcome> {
  // This agent advertises no probe:* capability, so the server never offers it a job with probes;
  // one that reaches it anyway (a capability added by hand) fails rather than running without
  // the figures it asks for, and no other agent like it would do better.
  if (job.probes.length > 0) return { kind: "fail", error: noProbes(job.probes), retryable: false, logTail: "" };
  const prepared = registry.prepare(job.workload.name, job.workload.settings);
  // A setting the workload refuses will be refused on every agent: no point retrying.
  if ("problem" in prepared) return { kind: "fail", error: prepared.problem, retryable: false, logTail: "" };

  const recorder = new MemoryRecorder();
  const environment = { ...captureEnvironment(), agent, workload: { name: prepared.name, settings: prepared.settings } };
  // The commit as it is when the run starts (a checkout may move between jobs).
  const { commit, problem } = captureGitCommit(git);
  if (problem) recorder.log(problem);
  const startedAt = new Date();
  try {
    await prepared.run(recorder, signal);
  } catch (error) {
    if (signal.aborted) return { kind: "stopped", reason: signal.reason as StopReason };
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof Error && error.stack) recorder.log(error.stack);
    return { kind: "fail", error: `workload ${prepared.name} failed: ${message}`.slice(0, 2000), retryable: true, logTail: recorder.logTail() };
  }
  if (signal.aborted) return { kind: "stopped", reason: signal.reason as StopReason };
  const finishedAt = new Date();

  const mapped = runMetrics(job.metrics, prepared.metrics, recorder);
  if ("problem" in mapped) return { kind: "fail", error: mapped.problem, retryable: false, logTail: recorder.logTail() };
  return {
    kind: "complete",
    run: { startedAt: startedAt.toISOString(), finishedAt: finishedAt.toISOString(), environment, ...commit, metrics: mapped.metrics },
    missingMetrics: mapped.missing,
  };
}

function noProbes(probes: Job["probes"]): string {
  const listed = probes.map((probe) => `"${String(probe.name)}" (${String(probe.kind)})`).join(", ");
  return `the reference agent has no probes; job.probes lists ${listed}: run the job on the Go or JVM agent`.slice(0, 2000);
}
