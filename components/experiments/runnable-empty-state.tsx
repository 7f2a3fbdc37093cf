// The Runs section of an experiment agents can run, before its first run: Run (and who may press
// it) instead of upload instructions, and for each workload which of the project's agents offer
// it — or, when none does, which agent that ships with Versus has it and how to start one against
// this server's own address.
import Link from "next/link";
import { plural } from "~/components/format";
import type { BuiltInAgent } from "~/server/workloads/built-in-agents";

export interface RunnableWorkload {
  name: string;
  /** The project's agents that advertise it. */
  offers: { name: string; kind: "go" | "jvm" | "other"; online: boolean }[];
  /** The agents shipped with Versus that have it. */
  builtIn: BuiltInAgent[];
}

interface Props {
  canRun: boolean;
  /** Jobs one press of Run queues: the agent-run variants × (warm-up + measured runs). */
  jobs: number;
  workloads: RunnableWorkload[];
  /** A batch was started already (it waits or runs above). */
  batchStarted: boolean;
  agentsHref: string;
  /** Where agents reach this server (server/http/public-origin.ts). */
  origin: string;
}

const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

const kindLabel = { go: "Go agent", jvm: "JVM agent", other: "agent" } as const;

export const builtInLabel: Record<BuiltInAgent, string> = {
  go: "the Go agent (agents/go)",
  reference: "the TypeScript reference agent (agents/reference)",
  jvm: "the JVM agent (agents/jvm)",
};

/** How to start a built-in agent against this server, with a token from the Agents page (the JVM agent for kafka with the local broker's jar, which the examples use). */
function startCommand(agent: BuiltInAgent, origin: string, workload: string): string {
  switch (agent) {
    case "go":
      return `cd agents/go && go build -o bin/versus-agent ./cmd/versus-agent\nVERSUS_URL=${origin} VERSUS_ENROLLMENT_TOKEN=venr_… bin/versus-agent`;
    case "reference":
      return `VERSUS_URL=${origin} VERSUS_ENROLLMENT_TOKEN=venr_… npm run agent`;
    case "jvm":
      return `cd agents/jvm && mvn -B package\n${workload === "kafka" ? "VERSUS_KAFKA_BROKER_JAR=$PWD/local-broker/target/versus-kafka-broker.jar " : ""}java -jar agent/target/versus-agent-jvm.jar --url ${origin} --enrollment-token venr_…`;
  }
}

function WorkloadLine({ workload, agentsHref, origin }: { workload: RunnableWorkload; agentsHref: string; origin: string }) {
  const online = workload.offers.filter((offer) => offer.online);
  if (online.length) {
    return (
      <li>
        “{workload.name}” runs on {online.map((offer) => `${offer.name} (${kindLabel[offer.kind]}, online)`).join(", ")}.
      </li>
    );
  }
  if (workload.offers.length) {
    return (
      <li>
        “{workload.name}” is offered by {workload.offers.map((offer) => `${offer.name} (${kindLabel[offer.kind]})`).join(", ")}, offline now: its jobs wait
        until one is back (see <Link href={agentsHref}>Agents</Link>).
      </li>
    );
  }
  const first = workload.builtIn[0];
  return (
    <li>
      No agent of this project offers “{workload.name}” yet.{" "}
      {first ? (
        <>
          {sentence(workload.builtIn.map((agent) => builtInLabel[agent]).join(" and "))} {workload.builtIn.length === 1 ? "has" : "have"} it: start one with an
          enrollment token from <Link href={agentsHref}>Agents</Link>:<pre className="block">{startCommand(first, origin, workload.name)}</pre>
        </>
      ) : (
        <>
          Enroll an agent that has it on the <Link href={agentsHref}>Agents</Link> page.
        </>
      )}
    </li>
  );
}

export function RunnableEmptyState({ canRun, jobs, workloads, batchStarted, agentsHref, origin }: Props) {
  return (
    <div className="empty runnable-empty" data-testid="runnable-empty">
      <p>
        {batchStarted ? (
          <>No runs yet: they land here as the agents finish the jobs above.</>
        ) : canRun ? (
          <>
            No runs yet. Press <strong>Run</strong> above: it queues {plural(jobs, "job")} for the project&apos;s agents, and the comparison fills in as their
            runs land.
          </>
        ) : (
          <>
            No runs yet. A member or owner of this project can press <strong>Run</strong>: the project&apos;s agents then measure it, and the comparison fills
            in as their runs land.
          </>
        )}
      </p>
      <ul className="runnable-workloads">
        {workloads.map((workload) => (
          <WorkloadLine key={workload.name} workload={workload} agentsHref={agentsHref} origin={origin} />
        ))}
      </ul>
    </div>
  );
}
