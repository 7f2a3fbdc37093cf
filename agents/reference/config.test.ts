// Flags over environment over defaults; bad values name the flag.
import { describe, expect, it } from "vitest";
import { ConfigError } from "./config-error";
import { parseLabels, readConfig } from "./config";

describe("readConfig", () => {
  it("reads the environment, flags win", () => {
    const env = { VERSUS_URL: "http://versus:3000/", VERSUS_ENROLLMENT_TOKEN: "venr_abc", VERSUS_AGENT_NAME: "box", VERSUS_AGENT_LABELS: "pool=lab,gpu=no" };
    const config = readConfig(["--name", "other", "--label", "pool=ci", "--credential-file", "/tmp/c.json", "--shutdown-grace", "3"], env);
    expect(config).toMatchObject({
      url: "http://versus:3000",
      enrollmentToken: "venr_abc",
      name: "other",
      labels: { os: process.platform, arch: process.arch, pool: "ci", gpu: "no" },
      credentialFile: "/tmp/c.json",
      shutdownGraceSeconds: 3,
    });
    expect(config.bufferDir).toMatch(/\.versus-agent\/buffer$/);
  });

  it("reads the commit runs measured from VERSUS_GIT_* (none when unset)", () => {
    expect(readConfig(["--url", "http://x"], {}).git).toEqual({ kind: "none" });
    expect(readConfig(["--url", "http://x"], { VERSUS_GIT_COMMIT: "abc1234", VERSUS_GIT_BRANCH: "main" }).git).toMatchObject({
      kind: "fixed",
      commit: { gitCommit: "abc1234", gitBranch: "main" },
    });
    expect(() => readConfig(["--url", "http://x"], { VERSUS_GIT_COMMIT: "abc1234", VERSUS_GIT_COMMIT_TIME: "soon" })).toThrow(
      "VERSUS_GIT_COMMIT_TIME must be ISO 8601 with an offset",
    );
  });

  it("names what is wrong", () => {
    expect(() => readConfig([], {})).toThrow(ConfigError);
    expect(() => readConfig([], {})).toThrow("url: --url / VERSUS_URL must be the server's address");
    expect(() => readConfig(["--url", "nope"], {})).toThrow("--url / VERSUS_URL must be the server's address");
    expect(() => readConfig(["--url", "http://x", "--enrollment-token", "vs_apikey"], {})).toThrow("must be a venr_… token");
  });
});

describe("parseLabels", () => {
  it("refuses pairs without a value and odd keys", () => {
    expect(() => parseLabels(["pool"])).toThrow('label "pool" is not key=value');
    expect(() => parseLabels(["bad key=1"])).toThrow('label key "bad key": use 1-63 letters, digits and _ . -');
  });
});
