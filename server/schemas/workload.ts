// Workloads: what an agent can run (it advertises each with a JSON Schema of its settings) and
// which one a variant runs, stored in Variant.config as {"workload": name, "settings": {...}}.
import { z } from "zod";
import { ZLabels } from "./labels";
import { ZMetricAggregation, ZMetricDirection, ZMetricKey, ZMetricUnit } from "./metric";
import { ZProbes } from "./probe";

export const ZWorkloadName = z
  .string({ error: "workload name is required" })
  .trim()
  .min(1, { message: "workload name is required", abort: true })
  .max(100, "workload name must be at most 100 characters")
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.:/-]*$/, "use letters, digits and _ . : / - (e.g. gzip or http-get)");

/** A workload's settings: whatever its JSON Schema describes; the agent checks them when it runs. */
export const ZWorkloadSettings = z.record(z.string(), z.unknown());

export type TWorkloadSettings = z.output<typeof ZWorkloadSettings>;

/** The most agents one load test may be split over. */
export const MAX_GROUP_AGENTS = 16;

const ZAgentCount = z
  .number({ error: "agents must be a whole number" })
  .int("agents must be a whole number")
  .min(1, "agents must be at least 1")
  .max(MAX_GROUP_AGENTS, `agents must be at most ${MAX_GROUP_AGENTS}`)
  .meta({ description: "how many agents run each job together, each with its share of the load (1: one agent)" });

/**
 * Every online agent that carries these labels (and can run the workload, with the batch's own
 * labels) runs each job together, counted when the batch starts; fewer than `min` refuses the start.
 * Its checks abort so that ZWorkloadAgents reports them as the pool's, not as "not a number".
 */
export const ZAgentPool = z
  .strictObject({
    labels: ZLabels.refine((labels) => Object.keys(labels).length > 0, {
      message: "name at least one label the pool's agents carry, e.g. pool=lab",
      abort: true,
    }).meta({ description: 'the labels every agent of the pool carries, e.g. {"pool": "lab"}' }),
    min: z
      .number({ error: "must be a whole number" })
      .int({ message: "must be a whole number", abort: true })
      .min(1, { message: "must be at least 1", abort: true })
      .max(MAX_GROUP_AGENTS, { message: `must be at most ${MAX_GROUP_AGENTS}, the most agents one run is split over`, abort: true })
      .default(1)
      .meta({ description: "the fewest online agents of the pool a batch starts with; with fewer, the start is refused" }),
  })
  .meta({
    id: "AgentPool",
    description: `every online agent with these labels that can run the workload runs each job together (at most ${MAX_GROUP_AGENTS}), counted when the batch starts`,
  });
export type TAgentPool = z.output<typeof ZAgentPool>;

const bothForms = `agents must be a whole number (1–${MAX_GROUP_AGENTS}) or a pool of labelled agents, e.g. {"labels": {"pool": "lab"}, "min": 2}`;

/**
 * How many agents run each of the variant's jobs together, each with its share of the load
 * (docs/agent-protocol.md, "Job groups"): a number (1, or left out, is one agent), or a pool of
 * labelled agents counted when the batch starts. A number is told what is wrong with the number,
 * an object what is wrong with the pool, anything else both forms.
 */
export const ZWorkloadAgents = z
  .union([ZAgentCount, ZAgentPool], {
    error: (issue) => {
      if (issue.code !== "invalid_union") return undefined;
      const input: unknown = issue.input;
      if (typeof input === "number") return issue.errors[0]?.map((inner) => inner.message).join("; ") || bothForms;
      if (typeof input !== "object" || input === null || Array.isArray(input)) return bothForms;
      const pool = issue.errors[1] ?? [];
      return pool.map((inner) => (inner.path.length ? `agents.${inner.path.join(".")}: ${inner.message}` : `agents: ${inner.message}`)).join("; ") || bothForms;
    },
  })
  .meta({ description: "a fixed number of agents, or a pool of labelled agents counted when the batch starts" });
export type TWorkloadAgents = z.output<typeof ZWorkloadAgents>;
/** As a form holds it (a pool's min may be left out); a parsed TWorkloadAgents is one too. */
export type TWorkloadAgentsInput = z.input<typeof ZWorkloadAgents>;

/** The pool a workload's agents are drawn from, or null for a fixed number. */
export function agentPool<A extends TWorkloadAgentsInput>(agents: A | undefined): Exclude<A, number> | null {
  return typeof agents === "object" ? (agents as Exclude<A, number>) : null;
}

/**
 * How many agents make each of a workload's runs: its fixed number (1 when left out), or for a
 * pool, how many of its agents are online now — at most MAX_GROUP_AGENTS. Everything that
 * counts shards (the split, the job total, the estimate) counts with this.
 */
export function agentCount(agents: TWorkloadAgentsInput | undefined, poolOnline: number): number {
  if (agentPool(agents)) return Math.min(poolOnline, MAX_GROUP_AGENTS);
  return (agents as number | undefined) ?? 1;
}

/** Whether a workload's runs may be split over several agents: a number above 1, or any pool. */
export function splitsOverAgents(agents: TWorkloadAgentsInput | undefined): boolean {
  return agentCount(agents, MAX_GROUP_AGENTS) > 1;
}

/**
 * What a job group does when one of its shards' agents is lost mid-run (its lease expired):
 * "fail" (the default) retries the whole group while attempts remain, else fails it; "partial"
 * stores the run of the shards that finished, marked partial with the lost agents named.
 */
export const shardLossModes = ["fail", "partial"] as const;
export const ZShardLoss = z.enum(shardLossModes, { error: `onShardLoss must be one of ${shardLossModes.join(", ")}` }).meta({
  description: "when a shard's agent is lost mid-run: fail (retry the group while attempts remain) or partial (store the others' run, marked partial)",
});
export type TShardLoss = z.output<typeof ZShardLoss>;

/** The workload a variant runs, and the probes its agent samples on the system under test meanwhile (./probe.ts). */
export const ZVariantWorkload = z.object({
  workload: ZWorkloadName,
  settings: ZWorkloadSettings.default({}),
  probes: ZProbes.default([]),
  agents: ZWorkloadAgents.optional(),
  onShardLoss: ZShardLoss.optional(),
});
export type TVariantWorkload = z.output<typeof ZVariantWorkload>;

/**
 * A variant's config: its workload, or {} while none is chosen (results can still be uploaded;
 * only "Run" needs a workload). Unknown keys are refused so a misspelt "workload" is not lost.
 */
export const ZVariantConfig = z
  .strictObject({
    workload: ZWorkloadName.optional(),
    settings: ZWorkloadSettings.optional(),
    probes: ZProbes.optional(),
    agents: ZWorkloadAgents.optional(),
    onShardLoss: ZShardLoss.optional(),
  })
  .refine((config) => config.workload !== undefined || config.settings === undefined, {
    message: "choose a workload for these settings",
    path: ["workload"],
  })
  .refine((config) => config.workload !== undefined || !config.probes?.length, {
    message: "probes: probes sample the system under test while a workload runs; choose a workload first",
    path: ["probes"],
  })
  .refine((config) => config.workload !== undefined || config.agents === undefined, {
    message: "agents: choose a workload for the agents to run first",
    path: ["agents"],
  })
  .refine((config) => config.onShardLoss === undefined || splitsOverAgents(config.agents), {
    message: "onShardLoss: only a workload split over several agents (agents 2 or more, or a pool) can lose a shard",
    path: ["onShardLoss"],
  });
export type TVariantConfig = z.output<typeof ZVariantConfig>;

/** The workload of a stored variant config, or null when none is configured. */
export function workloadOf(config: unknown): TVariantWorkload | null {
  const parsed = ZVariantWorkload.safeParse(config);
  return parsed.success ? parsed.data : null;
}

/**
 * A metric a workload reports, as its agent advertises it: what the variant form offers to add to
 * an experiment with one click, and what the server checks an agent-run experiment's metrics
 * against (docs/agent-protocol.md, "Workloads, settings and metrics").
 */
export const ZWorkloadMetric = z
  .object({
    key: ZMetricKey,
    unit: ZMetricUnit,
    direction: ZMetricDirection,
    aggregation: ZMetricAggregation.default("mean").meta({
      description: "how one run is summarised into one number when this metric is compared (the experiment may choose another)",
    }),
    description: z.string().trim().max(500, "a metric's description must be at most 500 characters").default(""),
  })
  .meta({ id: "WorkloadMetric" });
export type TWorkloadMetric = z.output<typeof ZWorkloadMetric>;

/** A workload as an agent advertises it, for the dashboard's typed settings form and its metrics. */
export const ZWorkloadAdvert = z.object({
  name: ZWorkloadName,
  description: z.string().trim().max(2000).default(""),
  settingsSchema: z
    .record(z.string(), z.unknown())
    .default({})
    .meta({ description: "JSON Schema (draft 2020-12) of the settings object; {} accepts any settings" }),
  metrics: z
    .array(ZWorkloadMetric)
    .max(200, "at most 200 metrics per workload")
    .superRefine((metrics, ctx) => {
      const seen = new Set<string>();
      metrics.forEach((metric, index) => {
        if (seen.has(metric.key)) ctx.addIssue({ code: "custom", path: [index, "key"], message: `metric "${metric.key}" is listed twice` });
        seen.add(metric.key);
      });
    })
    .optional()
    .meta({ description: "every metric a run of this workload can report; left out, the server cannot tell which metrics it reports and checks none" }),
});
export type TWorkloadAdvert = z.output<typeof ZWorkloadAdvert>;
