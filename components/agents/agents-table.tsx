"use client";
// The project's agents, refreshed every few seconds: online or not (and when last seen), kind
// and version, what they can run (capabilities, labels), the job they hold, the token they
// enrolled with. Members ask an agent to stop, resume a stopped one, or revoke it.
import { useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useAction } from "~/components/forms/use-action";
import { plural } from "~/components/format";
import { timeAgo } from "~/components/time-ago";
import { useTRPC } from "~/components/trpc/react";
import { useNow } from "~/components/use-now";
import type { AgentRow } from "~/server/agents/agent-admin";

const REFRESH_MS = 3000;

function status(agent: AgentRow): { label: string; className: string } {
  if (agent.revokedAt) return { label: "revoked", className: "badge" };
  if (agent.stopRequested) return { label: agent.online ? "stopping" : "stopped", className: "badge warn" };
  return agent.online ? { label: "online", className: "badge good" } : { label: "offline", className: "badge" };
}

export function AgentsTable({ projectSlug, canWrite }: { projectSlug: string; canWrite: boolean }) {
  const trpc = useTRPC();
  const now = useNow();
  const agents = useQuery({ ...trpc.agent.list.queryOptions({ projectSlug }), refetchInterval: REFRESH_MS });
  const revoke = useMutation(trpc.agent.revoke.mutationOptions());
  const stop = useMutation(trpc.agent.requestStop.mutationOptions());
  const resume = useMutation(trpc.agent.resume.mutationOptions());
  const action = useAction(() => agents.refetch());
  const act = (question: string, mutation: () => Promise<unknown>) => (window.confirm(question) ? action.run(mutation) : undefined);

  return (
    <section className="card" aria-labelledby="agents-heading">
      <h2 id="agents-heading">Agents</h2>
      {action.error ? (
        <div className="alert" role="alert">
          {action.error}
        </div>
      ) : null}
      {agents.isPending ? <p className="muted">Loading…</p> : null}
      {agents.error ? (
        <p className="error" role="alert">
          {agents.error.message}
        </p>
      ) : null}
      {agents.data && agents.data.length === 0 ? (
        <p className="empty">No agent has enrolled yet. Start one with an enrollment token (below) and it shows here.</p>
      ) : null}
      {agents.data && agents.data.length > 0 ? (
        <div className="table-wrap">
          <table aria-label="Agents" className="stacked">
            <thead>
              <tr>
                <th>Agent</th>
                <th>Status and last call</th>
                <th>Can run (capabilities, labels)</th>
                <th>Running now</th>
                {canWrite ? <th aria-label="Actions" /> : null}
              </tr>
            </thead>
            <tbody>
              {agents.data.map((agent) => {
                const shown = status(agent);
                return (
                  <tr key={agent.id} data-testid="agent" data-status={shown.label}>
                    <td>
                      <strong className="agent-name">{agent.name}</strong>
                      <div className="muted small">
                        {agent.kind} {agent.version}
                      </div>
                      <div className="muted small" data-narrow="hide">
                        {agent.enrollmentToken ? `enrolled with “${agent.enrollmentToken.name}”` : "enrollment token deleted"} ·{" "}
                        <code>{agent.credentialPrefix}…</code>
                      </div>
                    </td>
                    <td>
                      <span className={shown.className}>{shown.label}</span>
                      <div className="muted small seen">{agent.lastSeenAt ? `seen ${timeAgo(agent.lastSeenAt, now)}` : "never seen"}</div>
                    </td>
                    <td>
                      <div className="tag-list" aria-label="Capabilities">
                        {agent.capabilities.length ? (
                          agent.capabilities.map((capability) => (
                            <span key={capability} className="badge">
                              {capability}
                            </span>
                          ))
                        ) : (
                          <span className="muted small">none</span>
                        )}
                      </div>
                      {Object.keys(agent.labels).length ? (
                        <div className="tag-list" aria-label="Labels">
                          {Object.entries(agent.labels).map(([key, value]) => (
                            <span key={key} className="badge accent">
                              {key}={value}
                            </span>
                          ))}
                        </div>
                      ) : null}
                    </td>
                    <td>
                      {agent.currentJobs.length === 0 ? <span className="muted small">idle</span> : null}
                      {agent.currentJobs.map((job) => (
                        <div key={job.id} className="small">
                          <Link href={`/p/${projectSlug}/e/${job.experiment.slug}`}>{job.experiment.title}</Link>
                          <span className="muted">
                            {" "}
                            · {job.variant}
                            {job.warmup ? " (warm-up)" : ""}
                          </span>
                        </div>
                      ))}
                    </td>
                    {canWrite ? (
                      <td className="cell-actions">
                        {agent.revokedAt ? null : (
                          <div className="actions agent-actions">
                            {agent.stopRequested ? (
                              <button
                                type="button"
                                className="button small"
                                aria-label={`Resume ${agent.name}`}
                                onClick={() =>
                                  void act(
                                    `Resume “${agent.name}”? It takes work again with the credential it has: ${agent.online ? "if it is still stopping it exits first, then start it again" : "start it again where it runs"}.`,
                                    () => resume.mutateAsync({ projectSlug, agentId: agent.id }),
                                  )
                                }
                              >
                                Resume
                              </button>
                            ) : (
                              <button
                                type="button"
                                className="button small"
                                aria-label={`Ask ${agent.name} to stop`}
                                onClick={() =>
                                  void act(
                                    `Ask “${agent.name}” to stop? It finishes or gives back ${plural(agent.currentJobs.length, "running job")}, takes no new work and exits.`,
                                    () => stop.mutateAsync({ projectSlug, agentId: agent.id }),
                                  )
                                }
                              >
                                Ask to stop
                              </button>
                            )}
                            <button
                              type="button"
                              className="button small danger"
                              aria-label={`Revoke ${agent.name}`}
                              onClick={() =>
                                void act(
                                  `Revoke “${agent.name}”? Its credential stops working at once and the jobs it runs go back to the queue. Its name cannot enroll again.`,
                                  () => revoke.mutateAsync({ projectSlug, agentId: agent.id }),
                                )
                              }
                            >
                              Revoke
                            </button>
                          </div>
                        )}
                      </td>
                    ) : null}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
