// The Run dialog's answer to "why can no agent run this?": for each thing the jobs need that no
// agent of the project offers (online or not), which agent that ships with Versus has it and what
// it takes to run one, so a user learns what to install or start instead of waiting on a queue
// nobody serves.
import type { ReactNode } from "react";
import { builtInLabel } from "~/components/experiments/runnable-empty-state";
import type { BuiltInAgent } from "~/server/workloads/built-in-agents";
import { KAFKA_LOCAL_BROKER_CAPABILITY, TARGETS_CAPABILITY } from "~/server/workloads/job-capabilities";

/** What it takes to have each built-in agent running for this project. */
const howToRun: Record<BuiltInAgent, ReactNode> = {
  go: (
    <>
      <code>npm start</code> runs it as the local agent where Go is installed (<code>go</code> on PATH when Versus starts); elsewhere build and start it as the
      Agents page shows
    </>
  ),
  reference: (
    <>
      <code>npm start</code> runs it as the local agent where Go is not installed, or start it with <code>npm run agent</code> as the Agents page shows
    </>
  ),
  jvm: (
    <>
      <code>npm start</code> runs it beside the Go agent where a JDK 17 and Maven are installed (for the workloads only it has); elsewhere build and start it as
      the Agents page shows
    </>
  ),
};

function Need({ need, builtIn }: { need: string; builtIn: BuiltInAgent[] }) {
  if (need === TARGETS_CAPABILITY) return <li>bundled targets (the workload&apos;s targets setting): the Go agent starts them for each job; {howToRun.go}.</li>;
  if (need === KAFKA_LOCAL_BROKER_CAPABILITY)
    return (
      <li>
        a Kafka broker of the run&apos;s own (the kafka workload&apos;s localBroker setting): the JVM agent starts one for each run when it has the local
        broker&apos;s jar (<code>VERSUS_KAFKA_BROKER_JAR</code>); {howToRun.jvm}. Or name your broker in the variant&apos;s bootstrapServers instead.
      </li>
    );
  if (need.startsWith("probe:")) return <li>probes of kind “{need.slice("probe:".length)}”: the Go and JVM agents read them; the reference agent has none.</li>;
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
