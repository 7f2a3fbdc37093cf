import { describe, expect, it } from "vitest";
import { planBatch } from "~/server/agents/plan";
import { agentsThatCanRun, batchDuration, jobCount, orderPreview, parseLabels, unofferedNeeds, variantAgents, type AgentForRun } from "./run-plan";

describe("jobCount", () => {
  it("counts warm-ups and measured runs per variant", () => {
    expect(jobCount(2, 1, 5)).toEqual({ warmup: 2, measured: 10, total: 12 });
    expect(jobCount(0, 1, 5)).toEqual({ warmup: 0, measured: 0, total: 0 });
  });
});

describe("orderPreview", () => {
  it("shows an interleaved batch's first jobs, warm-ups first", () => {
    expect(orderPreview(["Plain", "Gzip"], 1, 5, "interleaved", undefined, 6)).toEqual(["warm-up Plain", "warm-up Gzip", "Plain", "Gzip", "Plain", "Gzip"]);
  });

  it("shows a random batch's order only once its seed is known, as the server will queue it", () => {
    expect(orderPreview(["Plain", "Gzip"], 1, 5, "random", undefined)).toBeNull();
    const queued = planBatch({ variants: ["Plain", "Gzip"], warmupRuns: 1, measuredRuns: 5, order: "random", seed: 42 })
      .slice(0, 8)
      .map((job) => (job.warmup ? `warm-up ${job.variant}` : job.variant));
    expect(orderPreview(["Plain", "Gzip"], 1, 5, "random", 42)).toEqual(queued);
  });

  it("stops at the batch's end when it is shorter than the preview", () => {
    expect(orderPreview(["A", "B"], 0, 1, "interleaved", undefined)).toEqual(["A", "B"]);
  });
});

describe("parseLabels", () => {
  it("reads key=value pairs separated by commas", () => {
    expect(parseLabels(" pool=lab, os = linux ,")).toEqual({ labels: { pool: "lab", os: "linux" } });
    expect(parseLabels("")).toEqual({ labels: {} });
    expect(parseLabels("gpu=")).toEqual({ labels: { gpu: "" } });
  });

  it("says which item is not a label", () => {
    expect(parseLabels("pool=lab, linux")).toEqual({ error: "“linux” is not key=value: write labels as pool=lab, os=linux" });
    expect(parseLabels("=lab")).toEqual({ error: "“=lab” is not key=value: write labels as pool=lab, os=linux" });
    expect(parseLabels("pool=a, pool=b")).toEqual({ error: "label “pool” is given twice" });
    expect(parseLabels(`${"k".repeat(65)}=v`)).toEqual({ error: "a label key must be at most 64 characters" });
  });
});

describe("agentsThatCanRun", () => {
  const agent = (id: string, extra: Partial<AgentForRun> = {}): AgentForRun => ({
    id,
    name: id,
    online: true,
    revokedAt: null,
    capabilities: ["gzip", "sleep"],
    labels: { pool: "lab" },
    ...extra,
  });
  const agents = [
    agent("a"),
    agent("b", { capabilities: ["sleep"] }),
    agent("c", { labels: { pool: "ci" } }),
    agent("d", { revokedAt: new Date("2026-01-01T00:00:00Z") }),
    agent("e", { online: false }),
  ];

  it("keeps unrevoked agents that offer every workload, online or not", () => {
    expect(agentsThatCanRun(agents, ["gzip"], {}).map((a) => a.id)).toEqual(["a", "c", "e"]);
    expect(agentsThatCanRun(agents, ["gzip", "sleep"], {}).map((a) => a.id)).toEqual(["a", "c", "e"]);
    expect(agentsThatCanRun(agents, ["http"], {})).toEqual([]);
  });

  it("requires every label and the pinned agent", () => {
    expect(agentsThatCanRun(agents, ["gzip"], { pool: "lab" }).map((a) => a.id)).toEqual(["a", "e"]);
    expect(agentsThatCanRun(agents, ["gzip"], { pool: "lab", os: "linux" })).toEqual([]);
    expect(agentsThatCanRun(agents, ["gzip"], {}, "c").map((a) => a.id)).toEqual(["c"]);
    expect(agentsThatCanRun(agents, ["gzip"], {}, "b")).toEqual([]);
  });

  it("counts a variant's pool as the batch start will: online, not stopping, labelled, within the batch's labels", () => {
    const pooled = [...agents, agent("f", { stopRequested: true }), agent("g", { labels: { pool: "lab", zone: "b" } })];
    const variant = { name: "Split", workload: "gzip", needs: ["gzip"], agents: { labels: { pool: "lab" }, min: 2 } };
    expect(variantAgents(variant, pooled, {})).toMatchObject({ count: 2, short: null, members: [{ id: "a" }, { id: "g" }] });
    expect(variantAgents(variant, pooled, { zone: "b" })).toMatchObject({
      count: 1,
      short: "every online agent labelled pool=lab that runs “gzip”, at least 2: 1 is online now (g)",
    });
    expect(variantAgents({ ...variant, agents: 3 }, pooled, {})).toEqual({ count: 3, pool: null, members: [], short: null });
  });

  it("also requires the probe kinds the jobs sample", () => {
    const prober = agent("p", { capabilities: ["gzip", "probe:prometheus"] });
    expect(agentsThatCanRun([...agents, prober], ["gzip", "probe:prometheus"], {}).map((a) => a.id)).toEqual(["p"]);
  });
});

describe("unofferedNeeds", () => {
  const agent = (id: string, capabilities: string[], extra: Partial<AgentForRun> = {}): AgentForRun => ({
    id,
    name: id,
    online: true,
    revokedAt: null,
    capabilities,
    labels: {},
    ...extra,
  });

  it("lists what no unrevoked agent offers, in the order needed; an offline agent's offer counts (it only needs to come back)", () => {
    const agents = [agent("reference", ["gzip", "sleep"]), agent("revoked-go", ["grpc", "http"], { revokedAt: new Date("2026-01-01T00:00:00Z") })];
    expect(unofferedNeeds(agents, ["grpc", "http", "probe:prometheus", "gzip"])).toEqual(["grpc", "http", "probe:prometheus"]);
    expect(unofferedNeeds([...agents, agent("offline-go", ["http", "grpc", "probe:prometheus"], { online: false })], ["grpc", "probe:prometheus"])).toEqual([]);
  });
});

describe("batchDuration", () => {
  const earlier = (variant: string, seconds: number, jobs = 10) => ({ variant, seconds, basis: "earlier jobs" as const, jobs });

  it("is the chosen variants' jobs × their median time, shared by the agents that can take them", () => {
    expect(batchDuration([earlier("Plain", 4.2), earlier("Gzip", 6)], ["Plain", "Gzip"], 6, 1)).toEqual({
      text: "about 1 min",
      basis: "the median time of 10 or more earlier jobs per variant, one agent at a time",
    });
    expect(batchDuration([earlier("Plain", 30), earlier("Gzip", 30)], ["Plain", "Gzip"], 12, 2)).toEqual({
      text: "about 6 min",
      basis: "the median time of 10 or more earlier jobs per variant, shared by 2 agents",
    });
    expect(batchDuration([earlier("Plain", 30)], ["Plain"], 1, 1).text).toBe("about 30 s");
    expect(batchDuration([earlier("A", 3600)], ["A"], 3, 1).text).toBe("about 3 h");
  });

  it("falls back on the workload's duration settings, and is unknown when nothing says", () => {
    expect(batchDuration([{ variant: "A", seconds: 4, basis: "settings", jobs: 0 }], ["A"], 12, 1)).toEqual({
      text: "about 50 s",
      basis: "the workloads' duration settings; start-up not included, one agent at a time",
    });
    expect(batchDuration([{ variant: "A", seconds: null, basis: null, jobs: 0 }, earlier("B", 1)], ["A", "B"], 5, 1).text).toBe("unknown");
  });
});
