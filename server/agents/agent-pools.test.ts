// Counting a pool at batch start: more agents online than one run is split over gives the most
// it can be, said in the count; and a pool's minimum is checked against the agents that could
// take a shard, not those that merely carry the label.
import { describe, expect, it } from "vitest";
import { MAX_GROUP_AGENTS, type TVariantWorkload } from "../schemas/workload";
import { poolMembers, resolvePools } from "./agent-pools";

const workload: TVariantWorkload = { workload: "http", settings: {}, probes: [], agents: { labels: { pool: "lab" }, min: 2 } };
const agent = (i: number, extra: Partial<{ capabilities: string[]; online: boolean; labels: Record<string, string> }> = {}) => ({
  name: `lab-${i}`,
  capabilities: ["http", "shards"],
  labels: { pool: "lab" },
  online: true,
  revokedAt: null,
  ...extra,
});

describe("resolvePools", () => {
  it("splits over at most MAX_GROUP_AGENTS when more of the pool are online", () => {
    const agents = Array.from({ length: MAX_GROUP_AGENTS + 4 }, (_, i) => agent(i));
    const resolved = resolvePools([{ id: "v", name: "Split" }], new Map([["v", workload]]), agents, {});
    expect(resolved.workloads.get("v")?.agents).toBe(MAX_GROUP_AGENTS);
    expect(resolved.labels.get("v")).toEqual({ pool: "lab" });
  });

  it("leaves a fixed number as it is, with the batch's labels", () => {
    const fixed = { ...workload, agents: 3 };
    const resolved = resolvePools([{ id: "v", name: "Split" }], new Map([["v", fixed]]), [], { os: "linux" });
    expect(resolved.workloads.get("v")?.agents).toBe(3);
    expect(resolved.labels.get("v")).toEqual({ os: "linux" });
  });

  it("does not count agents of the pool that cannot take a shard", () => {
    const agents = [agent(1), agent(2, { online: false }), agent(3, { capabilities: ["http"] }), agent(4, { labels: { pool: "other" } })];
    expect(poolMembers(agents, ["http", "shards"], { labels: { pool: "lab" }, min: 2 }, {}).map((member) => member.name)).toEqual(["lab-1"]);
    expect(() => resolvePools([{ id: "v", name: "Split" }], new Map([["v", workload]]), agents, {})).toThrow(
      'Variant "Split" runs on every online agent labelled pool=lab that runs “http”, at least 2: 1 is online now (lab-1).',
    );
  });
});
