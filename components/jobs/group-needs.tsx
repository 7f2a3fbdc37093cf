// What the Run dialog says of each variant split over several agents (a job group per run): how
// many agents each run needs at once, and which online agents could take a share — they need the
// `shards` capability besides the workload's. A pool of labelled agents is counted as the batch
// start will count it, and one below its minimum is said before Run refuses it.
import { labelText } from "~/server/agents/batch-waits";
import type { TLabels } from "~/server/schemas/labels";
import { MAX_GROUP_AGENTS } from "~/server/schemas/workload";
import { SHARDS_CAPABILITY } from "~/server/workloads/job-capabilities";
import { agentsThatCanRun, variantAgents, type AgentForRun, type RunnableVariant } from "./run-plan";

const names = (agents: { name: string }[]) => agents.map((agent) => agent.name).join(", ");

export function GroupNeeds({ variants, agents, labels }: { variants: RunnableVariant[]; agents: AgentForRun[]; labels: TLabels }) {
  const split = variants.map((variant) => ({ variant, ...variantAgents(variant, agents, labels) })).filter((entry) => entry.pool || entry.count > 1);
  if (split.length === 0) return null;
  return (
    <ul className="small" style={{ margin: 0, paddingLeft: "1.2em" }} data-testid="run-group-needs">
      {split.map(({ variant, count, pool, members, short }) => {
        if (pool) {
          const online = members.length;
          return (
            <li key={variant.name} data-testid="run-pool">
              Each run of <strong>{variant.name}</strong> is made by <strong>every online agent labelled {labelText(pool.labels)}</strong> that offers{" "}
              <code>{SHARDS_CAPABILITY}</code>, at least {pool.min}, counted when you press Run:{" "}
              {short ? (
                <strong className="error">
                  {online ? `only ${online} online now (${names(members)})` : "none online now"}, so Run is refused until {pool.min - online} more{" "}
                  {pool.min - online === 1 ? "is" : "are"}.
                </strong>
              ) : (
                <>
                  <strong>{online} online now</strong> — {names(members)}
                  {online > MAX_GROUP_AGENTS ? `; a run is split over at most ${MAX_GROUP_AGENTS}, so ${count} of them take each run` : ""}.
                </>
              )}
            </li>
          );
        }
        const online = agentsThatCanRun(agents, variant.needs, labels).filter((agent) => agent.online);
        return (
          <li key={variant.name}>
            Each run of <strong>{variant.name}</strong> needs <strong>{count} agents at once</strong>, each sending its share of the load and offering{" "}
            <code>{SHARDS_CAPABILITY}</code> (the Go agent does): {online.length ? `${online.length} online — ${names(online)}` : "none online"}
            {online.length >= count ? (
              "."
            ) : (
              <strong>
                ; its runs wait until {count - online.length} more {count - online.length === 1 ? "is" : "are"}.
              </strong>
            )}
          </li>
        );
      })}
    </ul>
  );
}
