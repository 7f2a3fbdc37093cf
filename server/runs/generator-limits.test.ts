import { describe, expect, it } from "vitest";
import { GENERATOR_LIMITED_TAG, withGeneratorVerdict } from "./generator-limits";
import type { TJobRun } from "../schemas/jobs";

const run = (environment: Record<string, unknown>): TJobRun => ({ status: "succeeded", tags: ["x"], environment, metrics: [], warnings: ["earlier"] });
const kept = { keptRate: true, late: 0, slots: 100, cpuPercent: 12, cores: 2 };
const behind = { keptRate: false, late: 40, slots: 100, cpuPercent: 97.6, cores: 2 };

describe("withGeneratorVerdict", () => {
  it("leaves a run whose generators kept the rate, or that says nothing of them, as it is", () => {
    for (const environment of [{}, { generator: kept }, { agents: [{ agent: "a", generator: kept }, { agent: "b" }] }]) {
      expect(withGeneratorVerdict(run(environment))).toEqual(run(environment));
    }
  });

  it("tags a lone agent's run that fell behind and says so first", () => {
    const judged = withGeneratorVerdict(run({ generator: behind }));
    expect(judged.tags).toEqual(["x", GENERATOR_LIMITED_TAG]);
    expect(judged.warnings).toEqual([
      "the load generator, not the target, limited this run: its agent could not keep the asked rate (40 of 100 send slots late, CPU 98% of 2 cores), so these figures measure the generator; split the load over more agents or give it more room",
      "earlier",
    ]);
  });

  it("names the shards of a merged run that fell behind", () => {
    const judged = withGeneratorVerdict(
      run({
        agents: [
          { agent: "a", generator: kept },
          { agent: "b", generator: { ...behind, cpuPercent: -1 } },
        ],
      }),
    );
    expect(judged.tags).toContain(GENERATOR_LIMITED_TAG);
    expect(judged.warnings?.[0]).toBe(
      "the load generators, not the target, limited this run: b (40 of 100 send slots late) could not keep the asked rate, so these figures measure the generators; split the load over more agents or give them more room",
    );
  });
});
