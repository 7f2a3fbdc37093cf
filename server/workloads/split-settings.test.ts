import { describe, expect, it } from "vitest";
import goWorkloads from "./built-in/go-workloads.json";
import { splitSettingNames, splitSettings } from "./split-settings";

const schemaOf = (name: string) =>
  (goWorkloads as { name: string; settingsSchema: Record<string, unknown> }[]).find((advert) => advert.name === name)?.settingsSchema as Record<
    string,
    unknown
  >;

describe("splitSettings", () => {
  const http = schemaOf("http");

  it("reads the load settings the Go agent marks", () => {
    expect(splitSettingNames(http).sort()).toEqual(["connections", "maxConnections", "rate", "requests"]);
    expect(splitSettingNames(schemaOf("grpc")).sort()).toEqual(["callers", "calls", "maxInFlight", "rate"]);
  });

  it("splits the open model's rate in equal parts and whole numbers so they add up exactly", () => {
    const shares = splitSettings({ url: "http://127.0.0.1:8080/", rate: 3000, requests: 10 }, http, 3);
    expect(shares.map((share) => share.rate)).toEqual([1000, 1000, 1000]);
    expect(shares.map((share) => share.requests)).toEqual([4, 3, 3]);
    // Left out, a marked setting stays out: its default may not apply (the open model refuses connections).
    expect(shares.map((share) => "connections" in share || "maxConnections" in share)).toEqual([false, false, false]);
    expect(shares.every((share) => share.url === "http://127.0.0.1:8080/")).toBe(true);
  });

  it("splits the closed model's connections and leaves its rate out", () => {
    const shares = splitSettings({ connections: 10 }, http, 3);
    expect(shares).toEqual([{ connections: 4 }, { connections: 3 }, { connections: 3 }]);
  });

  it("refuses, naming the setting, a whole number too small to give each agent its minimum", () => {
    expect(() => splitSettings({ connections: 2 }, http, 3, ["variants", 0, "config", "settings"])).toThrow(
      expect.objectContaining({
        message: "connections 2 cannot be split over 3 agents: each needs at least 1 (give at least 3)",
        fieldIssues: [
          {
            path: ["variants", 0, "config", "settings", "connections"],
            message: "connections 2 cannot be split over 3 agents: each needs at least 1 (give at least 3)",
          },
        ],
      }),
    );
  });
});
