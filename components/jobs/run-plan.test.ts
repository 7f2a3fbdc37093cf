import { describe, expect, it } from "vitest";
import { planBatch } from "~/server/jobs/plan";
import { agentsThatCanRun, jobCount, orderPreview, parseLabels, type AgentForRun } from "./run-plan";

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
  const agent = (id: string, extra: Partial<AgentForRun> = {}): AgentForRun => ({ id, name: id, online: true, revokedAt: null, capabilities: ["gzip", "sleep"], labels: { pool: "lab" }, ...extra });
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
});
