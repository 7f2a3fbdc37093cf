// Measuring noise does not move an experiment's verdict: the runs of an A/A batch ("Measure noise",
// `versus run --noise`) measure the agents' spread, so the experiment's comparison, its charts
// and the noise floor's run counts leave them out — and say so, and the runs list marks them —
// while the A/A batch's own result still reads them. On a real, migrated PostgreSQL, with an
// agent speaking the real job protocol.
// Without this, an A/A batch run while the machine is slower than during the interleaved A/B batch
// piles non-interleaved baseline runs onto one side and turns a real regression into "no change".
import { afterAll, describe, expect, it } from "vitest";
import { jobWakeups } from "~/server/agents/wakeups";
import { db } from "~/server/db/client";
import { batchOf, completeAll, jobsProject, registeredAgent } from "~/test/agent-protocol";
import { getExperimentResults } from "./charts";
import { getComparison } from "./comparison";
import { metricResults } from "../reports/report-markdown";
import { listRuns } from "../runs/experiment-runs";

afterAll(async () => {
  await jobWakeups().close();
  await db.$disconnect();
});

describe("an A/A batch's runs and the experiment's comparison", () => {
  it("leave the A/B verdict, its run counts and its charts as they were, and the comparison says why", async () => {
    const project = await jobsProject(db, "aa-apart", { measuredRuns: 5 });
    const agent = await registeredAgent(project);
    const where = { projectSlug: project.slug };

    // Interleaved A/B: B is 5 % slower on every run.
    await batchOf(db, project, { runs: 5 });
    await completeAll(agent, (job, i) => 10 + (i % 5) * 0.01 + (job.variant.name === "B" ? 0.5 : 0));
    const before = await getComparison(db, where, project.experimentSlug);
    expect(before.metrics[0]?.comparison?.comparisons[0]?.verdict).toBe("worse");

    // Later the machine is busier: the A/A batch's runs of A are all slower than B's were.
    const aa = await batchOf(db, project, { noise: true });
    await completeAll(agent, (_job, i) => 10.7 + (i % 5) * 0.01);

    const { comparison, charts } = await getExperimentResults(db, where, project.experimentSlug);
    const metric = comparison.metrics[0]!;
    const candidate = metric.comparison!.comparisons[0]!;
    expect(comparison.variants).toEqual([
      { name: "A", isBaseline: true, runs: 5 },
      { name: "B", isBaseline: false, runs: 5 },
    ]);
    expect(candidate).toMatchObject({ nBaseline: 5, nCandidate: 5, verdict: "worse" });
    expect(candidate.change.percent).toBeCloseTo(before.metrics[0]!.comparison!.comparisons[0]!.change.percent!, 9);
    // The floor is of the A/B batch's run counts, not of the A/A runs piled onto the baseline.
    expect(metric.noiseFloor?.[0]).toMatchObject({ runs: { baseline: 5, candidate: 5 }, batchId: aa.id });
    expect(metric.comparison!.notes).toContain("10 runs of A from A/A batches (Measure noise) are left out: they measure the noise floor");
    expect(metricResults(metric, comparison.baseline).join("\n")).toContain("10 runs of A from A/A batches (Measure noise) are left out");
    // The charts draw the compared runs.
    expect(charts?.metrics[0]?.runs.filter((run) => run.variant === "A")).toHaveLength(5);

    // The runs list marks which runs are the A/A batch's, so the counts above add up.
    const listed = await listRuns(db, project.id, project.experimentSlug, { offset: 0, limit: 100 });
    expect(listed.runs.filter((run) => run.noise).map((run) => run.variant)).toEqual(Array(10).fill("A"));
    expect(listed.runs.filter((run) => !run.noise)).toHaveLength(10);

    // The A/A batch's own comparison still has its runs.
    const own = await getComparison(db, where, project.experimentSlug, undefined, { batchId: aa.id });
    expect(own.variants.find((variant) => variant.name === "A")?.runs).toBe(10);
  });

  it("leaves an experiment with only A/A runs without a comparison of them, saying where they are", async () => {
    const project = await jobsProject(db, "aa-only", { measuredRuns: 4 });
    const agent = await registeredAgent(project);
    await batchOf(db, project, { noise: true });
    await completeAll(agent, (_job, i) => 20 + (i % 4) * 0.3);
    const comparison = await getComparison(db, { projectSlug: project.slug }, project.experimentSlug);
    expect(comparison.variants.find((variant) => variant.name === "A")?.runs).toBe(0);
    expect(comparison.metrics[0]?.reason).toBe(
      'the baseline "A" has no runs with this metric (8 runs of A from A/A batches (Measure noise) are left out: they measure the noise floor)',
    );
  });
});
