import { describe, expect, it } from "vitest";
import { anyActive, finished, jobState, succeededJobs, totalJobs, unfinished } from "./job-state";

const now = new Date("2026-05-01T12:00:00Z");
const job = { status: "queued" as const, attempts: 0, runAfter: new Date("2026-05-01T11:59:00Z"), cancelRequested: false, agent: null };
const counts = (over: Partial<Record<"queued" | "leased" | "succeeded" | "failed" | "cancelled", number>>) => ({
  counts: { queued: 0, leased: 0, succeeded: 0, failed: 0, cancelled: 0, ...over },
});

describe("jobState", () => {
  it("words each status, naming the agent a running job is on", () => {
    expect(jobState(job, now)).toEqual({ label: "queued", tone: "plain" });
    expect(jobState({ ...job, status: "leased", agent: { id: "a1", name: "bench-1" } }, now)).toEqual({ label: "running on bench-1", tone: "accent" });
    expect(jobState({ ...job, status: "leased", cancelRequested: true, agent: { id: "a1", name: "bench-1" } }, now)).toEqual({
      label: "stopping on bench-1",
      tone: "bad",
    });
    expect(jobState({ ...job, status: "succeeded" }, now)).toEqual({ label: "done", tone: "good" });
    expect(jobState({ ...job, status: "failed" }, now)).toEqual({ label: "failed", tone: "bad" });
    expect(jobState({ ...job, status: "cancelled" }, now)).toEqual({ label: "cancelled", tone: "plain" });
  });

  it("tells a failed job waiting out its backoff from one never tried", () => {
    expect(jobState({ ...job, attempts: 1, runAfter: new Date("2026-05-01T12:00:20Z") }, now).label).toBe("waiting to retry");
    expect(jobState({ ...job, attempts: 1, runAfter: new Date("2026-05-01T11:59:59Z") }, now).label).toBe("queued");
  });
});

describe("batch progress", () => {
  it("counts finished and unfinished jobs", () => {
    const batch = counts({ queued: 3, leased: 1, succeeded: 5, failed: 2, cancelled: 1 });
    expect([unfinished(batch), finished(batch), totalJobs(batch)]).toEqual([4, 8, 12]);
  });

  it("is active while any batch has queued or running jobs", () => {
    expect(anyActive(undefined)).toBe(false);
    expect(anyActive([counts({ succeeded: 4 }), counts({ failed: 1, cancelled: 2 })])).toBe(false);
    expect(anyActive([counts({ succeeded: 4 }), counts({ leased: 1 })])).toBe(true);
    expect(anyActive([counts({ queued: 1 })])).toBe(true);
  });

  it("adds up the jobs done across batches", () => {
    expect(succeededJobs([counts({ succeeded: 4, failed: 1 }), counts({ succeeded: 2 })])).toBe(6);
    expect(succeededJobs(undefined)).toBe(0);
  });
});
