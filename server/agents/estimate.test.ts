// How long one job lasts by its workload's settings alone (before any job of them ran).
import { describe, expect, it } from "vitest";
import { settingsSeconds } from "./estimate";

const job = (workload: string, settings: Record<string, unknown>) => ({ workload, settings, probes: [] });

describe("settingsSeconds", () => {
  it("is warm-up + duration for the Go agent's http and grpc, 10 s of load by default", () => {
    expect(settingsSeconds(job("http", { duration: 8, warmupSeconds: 2 }))).toBe(10);
    expect(settingsSeconds(job("grpc", { duration: 8, warmupSeconds: 2, target: "127.0.0.1:17812" }))).toBe(10);
    expect(settingsSeconds(job("grpc", {}))).toBe(10);
  });

  it("is unknown for a count of requests or calls, and for workloads whose settings say no time", () => {
    expect(settingsSeconds(job("http", { requests: 1000 }))).toBeNull();
    expect(settingsSeconds(job("grpc", { calls: 1000 }))).toBeNull();
    expect(settingsSeconds(job("exec", { command: ["true"] }))).toBeNull();
  });
});
