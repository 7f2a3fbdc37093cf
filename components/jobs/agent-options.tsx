// The <option>s of an agent picker (Run's "One agent", Measure noise's "Agent"): each active agent
// with whether it is online, those that lack something the jobs need disabled with what it lacks.
interface PickableAgent {
  id: string;
  name: string;
  online: boolean;
  capabilities: string[];
}

export function AgentOptions({ agents, needs }: { agents: PickableAgent[]; needs: string[] }) {
  return agents.map((agent) => {
    const lacking = needs.filter((need) => !agent.capabilities.includes(need));
    return (
      <option key={agent.id} value={agent.id} disabled={lacking.length > 0}>
        {agent.name} ({agent.online ? "online" : "offline"}){lacking.length ? ` — does not offer ${lacking.join(", ")}` : ""}
      </option>
    );
  });
}
