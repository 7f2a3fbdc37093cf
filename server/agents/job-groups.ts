// Job groups at batch start: a variant whose workload asks for N agents gets, for each of its
// jobs, N shards with their shares of the load (server/workloads/split-settings.ts), read from
// the settings schema its agents advertise.
import type { Db } from "../db/client";
import { AppError } from "../core/errors";
import type { TWorkloadSettings } from "../schemas/workload";
import { SPLIT_KEY, splitSettingNames, splitSettings } from "../workloads/split-settings";
import { workloadOffers } from "../workloads/workload-checks";
import type { TResolvedWorkload } from "./agent-pools";

/**
 * Each split variant's shard settings (by variant id); variants run by one agent are absent.
 * Refused when a workload marks no load setting: its shards would each run the whole load.
 */
export async function shardSettings(
  db: Db,
  projectId: string,
  variants: readonly { id: string; name: string }[],
  workloads: ReadonlyMap<string, TResolvedWorkload>,
): Promise<Map<string, TWorkloadSettings[]>> {
  const split = variants.filter((variant) => (workloads.get(variant.id)?.agents ?? 1) > 1);
  const shares = new Map<string, TWorkloadSettings[]>();
  if (split.length === 0) return shares;
  const offers = await workloadOffers(db, projectId);
  for (const variant of split) {
    const workload = workloads.get(variant.id) as TResolvedWorkload;
    const schema = offers.get(workload.workload)?.[0]?.settingsSchema ?? {};
    if (splitSettingNames(schema).length === 0) {
      throw new AppError(
        "UNPROCESSABLE",
        `Variant "${variant.name}" asks for ${workload.agents} agents, but workload "${workload.workload}" marks no load setting (${SPLIT_KEY}) to share among them: set agents to 1`,
        { fieldIssues: [{ path: ["variants"], message: `workload "${workload.workload}" cannot be split over agents` }] },
      );
    }
    const given = splitSettingNames(schema).filter((name) => typeof workload.settings[name] === "number");
    if (given.length === 0) {
      throw new AppError(
        "UNPROCESSABLE",
        `Variant "${variant.name}" asks for ${workload.agents} agents: give the load to share among them (${splitSettingNames(schema).join(", ")}) in its settings`,
        { fieldIssues: [{ path: ["variants"], message: `no load setting given to split over ${workload.agents} agents` }] },
      );
    }
    shares.set(variant.id, splitSettings(workload.settings, schema, workload.agents ?? 1, ["variants", variant.name, "settings"]));
  }
  return shares;
}
