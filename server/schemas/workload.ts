// Workloads: what an agent can run (it advertises each with a JSON Schema of its settings) and
// which one a variant runs, stored in Variant.config as {"workload": name, "settings": {...}}.
import { z } from "zod";
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

/**
 * How many agents run each of the variant's jobs together, each with its share of the load
 * (docs/agent-protocol.md, "Job groups"); 1, or left out, is one agent.
 */
export const ZWorkloadAgents = z
  .number({ error: "agents must be a whole number" })
  .int("agents must be a whole number")
  .min(1, "agents must be at least 1")
  .max(MAX_GROUP_AGENTS, `agents must be at most ${MAX_GROUP_AGENTS}`)
  .meta({ description: "how many agents run each job together, each with its share of the load (1: one agent)" });

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
  .refine((config) => config.onShardLoss === undefined || (config.agents ?? 1) > 1, {
    message: "onShardLoss: only a workload split over several agents (agents 2 or more) can lose a shard",
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
