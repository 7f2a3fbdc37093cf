// What the Run dialog says of each variant split over several agents (a job group per run): how
// many agents each run needs at once, and which online agents could take a share — they need the
// `shards` capability besides the workload's.
import type { TLabels } from "~/server/schemas/agents";
import { SHARDS_CAPABILITY } from "~/server/workloads/job-capabilities";
import { agentsThatCanRun, type AgentForRun, type RunnableVariant } from "./run-plan";

export function GroupNeeds({ variants, agents, labels }: { variants: RunnableVariant[]; agents: AgentForRun[]; labels: TLabels }) {
  const split = variants.filter((variant) => variant.agents > 1);
  if (split.length === 0) return null;
  return (
    <ul className="small" style={{ margin: 0, paddingLeft: "1.2em" }} data-testid="run-group-needs">
      {split.map((variant) => {
        const online = agentsThatCanRun(agents, variant.needs, labels).filter((agent) => agent.online);
        const enough = online.length >= variant.agents;
        return (
          <li key={variant.name}>
            Each run of <strong>{variant.name}</strong> needs <strong>{variant.agents} agents at once</strong>, each sending its share of the load and offering{" "}
            <code>{SHARDS_CAPABILITY}</code> (the Go agent does):{" "}
            {online.length ? `${online.length} online — ${online.map((agent) => agent.name).join(", ")}` : "none online"}
            {enough ? (
              "."
            ) : (
              <strong>
                ; its runs wait until {variant.agents - online.length} more {variant.agents - online.length === 1 ? "is" : "are"}.
              </strong>
            )}
          </li>
        );
      })}
    </ul>
  );
}
