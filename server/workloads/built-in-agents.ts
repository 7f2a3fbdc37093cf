// Which of the agents that ship with Versus has a workload, read from what each one advertises
// (./built-in/*.json, printed by the agents and checked against them by their own tests): the
// experiment page's hint when no agent of the project offers a variant's workload yet.
import goWorkloads from "./built-in/go-workloads.json";
import jvmWorkloads from "./built-in/jvm-workloads.json";
import referenceWorkloads from "./built-in/reference-workloads.json";

export type BuiltInAgent = "go" | "jvm" | "reference";

const names: Record<BuiltInAgent, string[]> = {
  go: goWorkloads.map((advert) => advert.name),
  jvm: jvmWorkloads.map((advert) => advert.name),
  reference: referenceWorkloads.map((advert) => advert.name),
};

/** The built-in agents that have this workload, Go first (the local agent of `npm start` when Go is installed). */
export function builtInAgentsWith(workload: string): BuiltInAgent[] {
  return (["go", "reference", "jvm"] as const).filter((agent) => names[agent].includes(workload));
}

/** The workloads only the JVM agent has: what `npm start`'s local JVM agent offers beside the Go (or reference) agent. */
export function jvmOnlyWorkloads(): string[] {
  return names.jvm.filter((workload) => builtInAgentsWith(workload).join() === "jvm");
}
