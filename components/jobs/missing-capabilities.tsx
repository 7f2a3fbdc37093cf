// The Run dialog's answer to "why can no agent run this?": for each thing the jobs need that no
// online agent offers, which agent that ships with Versus has it and what it takes to run one, so
// a user learns what to install or start instead of waiting on a queue nobody serves.
import { builtInLabel } from "~/components/experiments/runnable-empty-state";
import type { BuiltInAgent } from "~/server/workloads/built-in-agents";

/** What it takes to have each built-in agent running for this project. */
const howToRun: Record<BuiltInAgent, string> = {
  go: "`npm start` runs it as the local agent where Go is installed (`go` on PATH when Versus starts); elsewhere build and start it as the Agents page shows",
  reference: "`npm start` runs it as the local agent where Go is not installed, or start it with `npm run agent` as the Agents page shows",
  jvm: "it needs a JDK 17 and Maven; build and start it as the Agents page shows",
};

function Need({ need, builtIn }: { need: string; builtIn: BuiltInAgent[] }) {
  if (need.startsWith("probe:")) {
    return (
      <li>
        probes of kind “{need.slice("probe:".length)}”: the Go and JVM agents read them ({howToRun.go}); the reference agent has no probes.
      </li>
    );
  }
  const first = builtIn[0];
  if (!first) return <li>“{need}”: no agent that ships with Versus has this workload; enroll an agent that offers it.</li>;
  return (
    <li>
      “{need}”: a workload of {builtIn.map((agent) => builtInLabel[agent]).join(" and ")}; {howToRun[first]}.
    </li>
  );
}

export function MissingCapabilities({ missing, builtIn }: { missing: string[]; builtIn: Record<string, BuiltInAgent[]> }) {
  if (!missing.length) return null;
  return (
    <ul className="small" data-testid="run-missing" style={{ margin: "0.5rem 0 0" }}>
      {missing.map((need) => (
        <Need key={need} need={need} builtIn={builtIn[need] ?? []} />
      ))}
    </ul>
  );
}
