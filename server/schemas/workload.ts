// Workloads: what an agent can run (it advertises each with a JSON Schema of its settings) and
// which one a variant runs, stored in Variant.config as {"workload": name, "settings": {...}}.
import { z } from "zod";

export const ZWorkloadName = z
  .string({ error: "workload name is required" })
  .trim()
  .min(1, { message: "workload name is required", abort: true })
  .max(100, "workload name must be at most 100 characters")
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.:/-]*$/, "use letters, digits and _ . : / - (e.g. gzip or http-get)");

/** A workload's settings: whatever its JSON Schema describes; the agent checks them when it runs. */
export const ZWorkloadSettings = z.record(z.string(), z.unknown());

/** The workload a variant runs. */
export const ZVariantWorkload = z.object({ workload: ZWorkloadName, settings: ZWorkloadSettings.default({}) });
export type TVariantWorkload = z.output<typeof ZVariantWorkload>;

/**
 * A variant's config: its workload, or {} while none is chosen (results can still be uploaded;
 * only "Run" needs a workload). Unknown keys are refused so a misspelt "workload" is not lost.
 */
export const ZVariantConfig = z
  .strictObject({ workload: ZWorkloadName.optional(), settings: ZWorkloadSettings.optional() })
  .refine((config) => config.workload !== undefined || config.settings === undefined, {
    message: "choose a workload for these settings",
    path: ["workload"],
  });
export type TVariantConfig = z.output<typeof ZVariantConfig>;

/** The workload of a stored variant config, or null when none is configured. */
export function workloadOf(config: unknown): TVariantWorkload | null {
  const parsed = ZVariantWorkload.safeParse(config);
  return parsed.success ? parsed.data : null;
}

/** A workload as an agent advertises it, for the dashboard's typed settings form. */
export const ZWorkloadAdvert = z.object({
  name: ZWorkloadName,
  description: z.string().trim().max(2000).default(""),
  settingsSchema: z
    .record(z.string(), z.unknown())
    .default({})
    .meta({ description: "JSON Schema (draft 2020-12) of the settings object; {} accepts any settings" }),
});
export type TWorkloadAdvert = z.output<typeof ZWorkloadAdvert>;
