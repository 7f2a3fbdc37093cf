// Every agent-run verdict carries its noise floor (comparison.metrics[].noiseFloor): on a real,
// migrated PostgreSQL, an agent speaking the real job protocol runs an A/A batch and then an A/B
// batch; the comparison gives each candidate the MDE of the agent's stored spread at the two
// sides' run counts, says a small unseen change is under the floor rather than no change, and
// leaves uploaded-only comparisons and experiments without an A/A batch alone.
import { afterAll, describe, expect, it } from "vitest";
import { jobWakeups } from "~/server/agents/wakeups";
import { db } from "~/server/db/client";
import { noiseFloorText, verdictText } from "~/server/display/display";
import { sampleSd, median } from "~/server/stats/descriptive";
import { minimumDetectableEffectBetween, runsForEffect } from "~/server/stats/mde";
import { batchOf, completeAll, jobsProject, registeredAgent } from "~/test/agent-protocol";
import { getComparison } from "./comparison";
import { experimentNoiseFloor } from "./noise-floor";
import { metricResults } from "../reports/report-markdown";

afterAll(async () => {
  await jobWakeups().close();
  await db.$disconnect();
});

describe("the noise floor of agent-run verdicts", () => {
  it("gives each candidate the MDE of its agent's A/A spread and says a smaller unseen change is under the floor", async () => {
    const project = await jobsProject(db, "floor", { measuredRuns: 5 });
    const agent = await registeredAgent(project);
    const where = { projectId: project.id };

    // No A/A batch yet: an agent-run comparison has no floor, and the Run dialog gets null.
    await batchOf(db, project, { runs: 5 });
    await completeAll(agent, (job, i) => 10 + (i % 5) * 0.1 + (job.variant.name === "B" ? 0.02 : 0));
    expect((await getComparison(db, where, project.experimentSlug)).metrics[0]?.noiseFloor).toBeUndefined();
    expect(await experimentNoiseFloor(db, project.id, project.experimentSlug, 2)).toBeNull();

    const aa = await batchOf(db, project, { noise: true });
    await completeAll(agent, (_job, i) => 10 + (i % 5) * 0.1);
    const comparison = await getComparison(db, where, project.experimentSlug);
    const metric = comparison.metrics[0]!;
    const candidate = metric.comparison!.comparisons[0]!;
    const floor = metric.noiseFloor?.[0];

    const aaValues = (await db.runMetricResult.findMany({ where: { run: { job: { batchId: aa.id } } }, select: { mean: true } })).map(
      (row) => row.mean as number,
    );
    expect(aaValues).toHaveLength(10);
    const runs = { baseline: 5, candidate: 5 }; // the A/B batch's: the A/A runs are not compared (compared-runs.ts)
    const expected = ((minimumDetectableEffectBetween(sampleSd(aaValues), 5, 5, 0.05) as number) / median(aaValues)) * 100;
    expect(floor).toMatchObject({ candidate: "B", runs, agents: [agent.name], unmeasured: [], batchId: aa.id });
    expect(floor!.mdePercent).toBeCloseTo(expected, 9);
    // B is 0.2 % slower: not significant, and smaller than the MDE — too small to tell, not "no change".
    expect(candidate.verdict).toBe("no_change");
    expect(Math.abs(candidate.change.percent!)).toBeLessThan(floor!.mdePercent!);
    expect(floor!.belowFloor).toBe(true);
    expect(verdictText(candidate, floor)).toBe("under the noise floor");
    expect(noiseFloorText(floor!)).toMatch(
      new RegExp(
        `^changes under ±${floor!.mdePercent!.toFixed(1).replace(".", "\\.")}% cannot be seen with 5 runs here \\(noise floor of ${agent.name}, measured \\d{4}-\\d\\d-\\d\\d\\)$`,
      ),
    );

    // The Markdown report says it in the verdict column and under the table.
    const report = metricResults(metric, comparison.baseline).join("\n");
    expect(report).toContain("| under the noise floor |");
    expect(report).toContain(`- B: ${noiseFloorText(floor!)}`);

    // The stored floor per metric and agent, and the runs a side a ±2 % change needs there.
    const stored = await experimentNoiseFloor(db, project.id, project.experimentSlug, 2);
    const needed = runsForEffect(sampleSd(aaValues), 0.02 * median(aaValues), 0.05);
    expect(stored).toMatchObject({ batchId: aa.id, runs: 5, suggestedRuns: { runs: needed, metric: "latency", agent: agent.name } });
    expect(stored?.entries).toHaveLength(1);
    // A larger change needs fewer runs.
    expect((await experimentNoiseFloor(db, project.id, project.experimentSlug, 10))?.suggestedRuns?.runs).toBeLessThan(needed);
  });

  it("names runs from an agent without a floor and uploads as unmeasured, and a batch's own comparison uses its own agents", async () => {
    const project = await jobsProject(db, "floor-mixed", { measuredRuns: 4 });
    const measured = await registeredAgent(project);
    const other = await registeredAgent(project);
    await batchOf(db, project, { noise: true, agentId: measured.id });
    await completeAll(measured, (_job, i) => 20 + (i % 4) * 0.3);
    // A/B on both agents: the A/A runs are not compared, so the measured agent must run some of the compared ones.
    await batchOf(db, project, { runs: 4, agentId: measured.id });
    await completeAll(measured, (job, i) => 20 + (i % 4) * 0.3 + (job.variant.name === "B" ? 5 : 0));
    const ab = await batchOf(db, project, { runs: 4, agentId: other.id });
    await completeAll(other, (job, i) => 20 + (i % 4) * 0.3 + (job.variant.name === "B" ? 5 : 0));

    const own = await getComparison(db, { projectId: project.id }, project.experimentSlug, undefined, { batchId: ab.id });
    // Only the other agent ran this batch, and it has no floor.
    expect(own.metrics[0]?.noiseFloor).toBeUndefined();
    const all = await getComparison(db, { projectId: project.id }, project.experimentSlug);
    expect(all.metrics[0]?.noiseFloor?.[0]).toMatchObject({ agents: [measured.name], unmeasured: [other.name], belowFloor: false });
  });
});
