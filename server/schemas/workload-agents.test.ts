// A variant's `agents`: a fixed number, or a pool of labelled agents counted when the batch
// starts; what each bad form is told, and how the rest of the server counts agents from either.
import { describe, expect, it } from "vitest";
import { agentCount, agentPool, MAX_GROUP_AGENTS, splitsOverAgents, ZVariantConfig } from "./workload";

const messages = (config: unknown) => {
  const parsed = ZVariantConfig.safeParse(config);
  return parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
};

describe("ZVariantConfig agents", () => {
  it("takes a whole number", () => {
    expect(ZVariantConfig.parse({ workload: "http", agents: 3 })).toMatchObject({ agents: 3 });
  });

  it("takes a pool, its minimum 1 when left out", () => {
    expect(ZVariantConfig.parse({ workload: "http", agents: { labels: { pool: "lab" }, min: 2 } }).agents).toEqual({ labels: { pool: "lab" }, min: 2 });
    expect(ZVariantConfig.parse({ workload: "http", agents: { labels: { pool: "lab" } } }).agents).toEqual({ labels: { pool: "lab" }, min: 1 });
  });

  it("lets a pool's variant say what a lost shard does, as a number above 1 does", () => {
    expect(ZVariantConfig.safeParse({ workload: "http", agents: { labels: { pool: "lab" } }, onShardLoss: "partial" }).success).toBe(true);
    expect(messages({ workload: "http", agents: 1, onShardLoss: "partial" })).toEqual([
      "onShardLoss: onShardLoss: only a workload split over several agents (agents 2 or more, or a pool) can lose a shard",
    ]);
  });

  it("refuses a minimum above the most agents a run is split over", () => {
    expect(messages({ workload: "http", agents: { labels: { pool: "lab" }, min: 17 } })).toEqual([
      `agents: agents.min: must be at most ${MAX_GROUP_AGENTS}, the most agents one run is split over`,
    ]);
    expect(messages({ workload: "http", agents: { labels: { pool: "lab" }, min: 0 } })).toEqual(["agents: agents.min: must be at least 1"]);
    expect(messages({ workload: "http", agents: { labels: { pool: "lab" }, min: 1.5 } })).toEqual(["agents: agents.min: must be a whole number"]);
    expect(messages({ workload: "http", agents: { labels: { pool: "lab" }, min: "2" } })).toEqual(["agents: agents.min: must be a whole number"]);
  });

  it("refuses a pool without labels", () => {
    expect(messages({ workload: "http", agents: { labels: {} } })).toEqual([
      "agents: agents.labels: name at least one label the pool's agents carry, e.g. pool=lab",
    ]);
    expect(messages({ workload: "http", agents: { min: 2 } })).toEqual([
      'agents: agents.labels: labels must be an object of key → value strings, e.g. {"pool": "lab"}',
    ]);
    expect(messages({ workload: "http", agents: { labels: { pool: 3 } } })).toEqual(["agents: agents.labels.pool: a label value must be a string"]);
  });

  it("refuses unknown keys in a pool, so a misspelt min is not lost", () => {
    expect(messages({ workload: "http", agents: { labels: { pool: "lab" }, minimum: 2 } })).toEqual(['agents: Unrecognized key: "minimum"']);
  });

  it("says both forms when agents is neither", () => {
    const both = `agents: agents must be a whole number (1–${MAX_GROUP_AGENTS}) or a pool of labelled agents, e.g. {"labels": {"pool": "lab"}, "min": 2}`;
    expect(messages({ workload: "http", agents: "three" })).toEqual([both]);
    expect(messages({ workload: "http", agents: [2] })).toEqual([both]);
    expect(messages({ workload: "http", agents: null })).toEqual([both]);
    expect(messages({ workload: "http", agents: 17 })).toEqual([`agents: agents must be at most ${MAX_GROUP_AGENTS}`]);
    expect(messages({ workload: "http", agents: 2.5 })).toEqual(["agents: agents must be a whole number"]);
  });
});

describe("agentCount", () => {
  const pool = { labels: { pool: "lab" }, min: 2 };
  it("is the fixed number, 1 when left out, whatever is online", () => {
    expect(agentCount(undefined, 5)).toBe(1);
    expect(agentCount(3, 0)).toBe(3);
  });
  it("is how many of a pool's agents are online, at most the most a run is split over", () => {
    expect(agentCount(pool, 4)).toBe(4);
    expect(agentCount(pool, 40)).toBe(MAX_GROUP_AGENTS);
    expect(agentPool(pool)).toBe(pool);
    expect(agentPool(4)).toBeNull();
  });
  it("counts a pool as several agents, a number only above 1", () => {
    expect(splitsOverAgents(pool)).toBe(true);
    expect(splitsOverAgents(2)).toBe(true);
    expect(splitsOverAgents(1)).toBe(false);
    expect(splitsOverAgents(undefined)).toBe(false);
  });
});
