// "The generator is not the bottleneck, or it says so." An open-model load run's agent records
// under environment.generator whether it kept the asked rate (its late send slots and its CPU;
// agents/go loadgen/pace.go); a job group's merged run keeps each shard's environment under
// environment.agents. A run where a generator fell behind is tagged GENERATOR_LIMITED_TAG, so
// the comparison can say which variants' runs measured their generators rather than the target,
// and says so first among its warnings, shown with the run (an agent's own caveats travel in its
// environment, which the runs table does not show).
import { MAX_RUN_WARNINGS, MAX_WARNING_CHARS } from "../schemas/results";
import type { TJobRun } from "../schemas/jobs";

export const GENERATOR_LIMITED_TAG = "generator-limited";

interface GeneratorFacts {
  keptRate?: unknown;
  late?: unknown;
  slots?: unknown;
  cpuPercent?: unknown;
  cores?: unknown;
}

type Environment = { generator?: GeneratorFacts; agents?: ({ agent?: unknown; generator?: GeneratorFacts } | null)[] } | undefined;

const fellBehind = (facts: GeneratorFacts | undefined) => facts?.keptRate === false;

/** What a generator that fell behind reported, in a few words. */
function figures(facts: GeneratorFacts): string {
  const late = typeof facts.late === "number" && typeof facts.slots === "number" ? `${facts.late} of ${facts.slots} send slots late` : "send slots late";
  const cpu = typeof facts.cpuPercent === "number" && facts.cpuPercent >= 0 ? `, CPU ${Math.round(facts.cpuPercent)}% of ${String(facts.cores)} cores` : "";
  return `${late}${cpu}`;
}

/** The run with its verdict when a generator fell behind: tagged, and a warning saying so first. */
export function withGeneratorVerdict(run: TJobRun): TJobRun {
  const environment = run.environment as Environment;
  const shards = (environment?.agents ?? []).filter((shard) => fellBehind(shard?.generator ?? undefined));
  const lone = fellBehind(environment?.generator) ? (environment?.generator as GeneratorFacts) : undefined;
  if (!lone && shards.length === 0) return run;
  const tags = [...new Set([...run.tags, GENERATOR_LIMITED_TAG])];
  const headline = lone
    ? `the load generator, not the target, limited this run: its agent could not keep the asked rate (${figures(lone)}), so these figures measure the generator; split the load over more agents or give it more room`
    : `the load generators, not the target, limited this run: ${shards.map((shard) => `${String(shard?.agent)} (${figures(shard?.generator as GeneratorFacts)})`).join(", ")} could not keep the asked rate, so these figures measure the generators; split the load over more agents or give them more room`;
  const clipped = headline.length > MAX_WARNING_CHARS ? `${headline.slice(0, MAX_WARNING_CHARS - 1)}…` : headline;
  return { ...run, tags, warnings: [clipped, ...(run.warnings ?? [])].slice(0, MAX_RUN_WARNINGS) };
}
