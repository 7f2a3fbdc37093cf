// Probes through the job protocol on a real, migrated PostgreSQL: a batch of a probed variant
// needs `probe:<kind>` from its agent (and says so while it waits), the claimed job carries the
// probes as the variant had them, and a complete with probe metrics and warnings stores both, read
// back with their time series. Uploads carry warnings the same way.
import { afterAll, describe, expect, it } from "vitest";
import { db } from "~/server/db/client";
import { listBatches } from "~/server/agents/batches";
import { chartsFor } from "~/server/comparison/charts";
import { getComparison } from "~/server/comparison/comparison";
import type { TProbeInput } from "~/server/schemas/probe";
import { agentApi, batchOf, claimed, jobsProject, registeredAgent, type ErrorReply } from "~/test/agent-protocol";
import { rowCounts } from "~/test/rest-assertions";

afterAll(() => db.$disconnect());

const probes: TProbeInput[] = [
  { name: "app-1", kind: "prometheus", url: "http://127.0.0.1:8081/actuator/prometheus", presets: ["process", "jvm"] },
  { name: "db", kind: "process", match: { name: "postgres" }, required: true, intervalSeconds: 2 },
];

function probedProject(label: string) {
  return jobsProject(db, label, {
    measuredRuns: 1,
    variants: [
      { name: "A", isBaseline: true, config: { workload: "noop", settings: { size: 1 }, probes } },
      { name: "B", isBaseline: false, config: { workload: "noop", settings: { size: 2 } } },
    ],
    metrics: [
      { key: "app-1.cpu_percent", unit: "%", direction: "lower_is_better" },
      { key: "latency", unit: "ms", direction: "lower_is_better" },
      { key: "db.rss_peak", unit: "B", direction: "lower_is_better", aggregation: "max" },
    ],
  });
}

describe("a batch of a probed variant", () => {
  it("needs probe:<kind> for each kind its probes use; an agent without them waits, and the batch says why", async () => {
    const project = await probedProject("probe-caps");
    const batch = await batchOf(db, project, { variants: ["A"] });
    const jobs = await db.job.findMany({ where: { batchId: batch.id }, select: { capabilities: true } });
    expect(jobs.map((job) => job.capabilities)).toEqual([["noop", "probe:prometheus", "probe:process"]]);

    const plain = await registeredAgent(project, { capabilities: ["noop", "probe:process"] });
    expect((await agentApi.claim(plain.credential, 0)).status).toBe(204);
    const [listed] = await listBatches(db, project.id, project.experimentSlug);
    expect(listed?.waiting).toEqual(["No agent of this project offers “noop”, “probe:prometheus”, “probe:process”: enroll one that does."]);
  });

  it("hands the probes to an agent that offers them, as the variant had them (defaults filled in); a variant without probes gets []", async () => {
    const project = await probedProject("probe-claim");
    await batchOf(db, project);
    const agent = await registeredAgent(project, { capabilities: ["noop", "probe:prometheus", "probe:process"] });
    const first = await claimed(agent);
    const second = await claimed(agent);
    const byVariant = new Map([first, second].map((job) => [job.variant.name, job]));
    expect(byVariant.get("A")?.probes).toEqual([{ ...probes[0], intervalSeconds: 1, required: false }, { ...probes[1] }]);
    expect(byVariant.get("A")?.workload).toEqual({ name: "noop", settings: { size: 1 } });
    expect(byVariant.get("B")?.probes).toEqual([]);
  });
});

describe("a complete with probe metrics and warnings", () => {
  it("stores the probe metrics with their time series and the run's warnings, read back as sent", async () => {
    const project = await probedProject("probe-complete");
    await batchOf(db, project, { variants: ["A"] });
    const agent = await registeredAgent(project, { capabilities: ["noop", "probe:prometheus", "probe:process"] });
    const job = await claimed(agent);
    const warnings = ['probe "app-1" did not answer for 1 of 4 intervals (2 s – 3 s): connection refused'];
    const cpu = [52.5, 61, 48.25];
    const reply = await agentApi.complete(agent.credential, job.id, {
      leaseToken: job.leaseToken,
      run: {
        startedAt: "2026-11-28T09:00:00Z",
        finishedAt: "2026-11-28T09:00:04Z",
        warnings,
        metrics: [
          { key: "latency", samples: [4.1, 4.3, 3.9] },
          { key: "app-1.cpu_percent", unit: "%", direction: "lower_is_better", samples: cpu, timeSeries: { intervalMs: 1000, values: cpu } },
          { key: "db.rss_peak", unit: "B", direction: "lower_is_better", samples: [2e8, 2.5e8], timeSeries: { intervalMs: 2000, values: [2e8, 2.5e8] } },
        ],
      },
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    const run = await db.run.findUniqueOrThrow({
      where: { id: reply.body.run!.id },
      select: {
        warnings: true,
        results: { select: { n: true, mean: true, max: true, metric: { select: { key: true } } } },
        timeSeries: { select: { offsetsMs: true, values: true, metric: { select: { key: true } } } },
      },
    });
    expect(run.warnings).toEqual(warnings);
    const results = Object.fromEntries(run.results.map((result) => [result.metric.key, result]));
    expect(results["app-1.cpu_percent"]).toMatchObject({ n: 3n, mean: (52.5 + 61 + 48.25) / 3, max: 61 });
    expect(results["db.rss_peak"]).toMatchObject({ n: 2n, max: 2.5e8 });
    const series = Object.fromEntries(run.timeSeries.map((entry) => [entry.metric.key, entry]));
    expect(series["app-1.cpu_percent"]).toEqual({ offsetsMs: [0, 1000, 2000], values: cpu, metric: { key: "app-1.cpu_percent" } });
    expect(series["db.rss_peak"]?.offsetsMs).toEqual([0, 2000]);

    // The comparison puts the client side's metrics first and names the probe of each server metric.
    const comparison = await getComparison(db, { projectId: project.id }, project.experimentSlug);
    expect(comparison.metrics.map((metric) => [metric.key, metric.probe])).toEqual([
      ["latency", null],
      ["app-1.cpu_percent", "app-1"],
      ["db.rss_peak", "db"],
    ]);
    // The charts follow it, each probe metric with its over-time series.
    const charts = await chartsFor(db, { projectSlug: project.slug }, comparison);
    expect(charts.metrics.map((metric) => [metric.key, metric.timeSeries.length])).toEqual([
      ["latency", 0],
      ["app-1.cpu_percent", 1],
      ["db.rss_peak", 1],
    ]);
  });

  it("refuses more than 20 warnings or one longer than 500 characters, naming the field; nothing is written", async () => {
    const project = await probedProject("probe-warnings");
    await batchOf(db, project, { variants: ["A"] });
    const agent = await registeredAgent(project, { capabilities: ["noop", "probe:prometheus", "probe:process"] });
    const job = await claimed(agent);
    const before = await rowCounts(db);
    const tooMany = await agentApi.complete(agent.credential, job.id, {
      leaseToken: job.leaseToken,
      run: { warnings: Array.from({ length: 21 }, (_, i) => `w${i}`), metrics: [{ key: "latency", samples: [1] }] },
    });
    expect(tooMany.status).toBe(400);
    expect((tooMany.body as unknown as ErrorReply).error.details?.fields).toEqual([
      { path: ["run", "warnings"], message: "warnings: at most 20 warnings per run" },
    ]);
    const tooLong = await agentApi.complete(agent.credential, job.id, {
      leaseToken: job.leaseToken,
      run: { warnings: ["x".repeat(501)], metrics: [{ key: "latency", samples: [1] }] },
    });
    expect((tooLong.body as unknown as ErrorReply).error.details?.fields).toEqual([
      { path: ["run", "warnings", 0], message: "warnings: a warning must be at most 500 characters" },
    ]);
    expect(await rowCounts(db)).toEqual(before);
  });
});
