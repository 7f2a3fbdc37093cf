// An agent-run experiment must ask its workloads for what they give: saving refuses (422, on the
// field, listing the valid keys and which agent said what) a metric no agent that advertises the
// variant's workload reports and settings none of their schemas takes; Run refuses the same when
// the adverts changed after saving. The adverts are the Go and JVM agents' own (fixtures printed
// by the agents), registered over the real route, on the real database.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/server/db/client";
import { startBatch } from "~/server/agents/batches";
import type { TProbeInput } from "~/server/schemas/probe";
import { ZExperimentInput, type TExperimentFormValues } from "~/server/schemas/experiment";
import goWorkloads from "~/server/workloads/built-in/go-workloads.json";
import jvmWorkloads from "~/server/workloads/built-in/jvm-workloads.json";
import { agentApi, projectForAgents, registeredAgent, uniqueSuffix, type JobsProject } from "~/test/agent-protocol";
import type { TestProject } from "~/test/project-members";
import { expectTRPCError, fieldIssuesOfError } from "~/test/trpc-errors";
import { AppError } from "../core/errors";

afterAll(() => db.$disconnect());

const goHttp = goWorkloads.find((advert) => advert.name === "http");
const jvmHttp = jvmWorkloads.find((advert) => advert.name === "http");

let project: TestProject;
let jobs: JobsProject;

beforeAll(async () => {
  ({ project, jobs } = await projectForAgents(db, "workload-fit"));
  // Registered second, the Go agent is the most recently seen: its schema is the form's.
  await registeredAgent(jobs, { name: "jvm-1", kind: "jvm", capabilities: [], workloads: [jvmHttp] });
  await registeredAgent(jobs, { name: "go-1", kind: "go", capabilities: [], workloads: [goHttp] });
});

function httpExperiment(overrides: Partial<TExperimentFormValues> = {}): TExperimentFormValues {
  return {
    title: `HTTP ${uniqueSuffix()}`,
    warmupRuns: 0,
    measuredRuns: 4,
    variants: [
      { name: "Keep-alive", isBaseline: true, config: { workload: "http", settings: { duration: 1 } } },
      { name: "New connection", isBaseline: false, config: { workload: "http", settings: { duration: 1, keepAlive: false } } },
    ],
    metrics: [
      { key: "latency", unit: "ms", direction: "lower_is_better", aggregation: "median" },
      { key: "throughput", unit: "req/s", direction: "higher_is_better" },
    ],
    ...overrides,
  };
}

const create = (experiment: TExperimentFormValues) =>
  project.owner.caller.experiment.create({ projectSlug: project.slug, experiment: ZExperimentInput.parse(experiment) });
const experimentCount = () => db.experiment.count({ where: { projectId: project.id } });

describe("saving an agent-run experiment", () => {
  it("accepts the metrics of its variants' probes beside the workload's, and still refuses a key neither reports", async () => {
    const probes: TProbeInput[] = [{ name: "app-1", kind: "prometheus", url: "http://127.0.0.1:8081/actuator/prometheus", presets: ["process", "jvm"] }];
    const probed = httpExperiment({
      variants: [
        { name: "Keep-alive", isBaseline: true, config: { workload: "http", settings: { duration: 1 }, probes } },
        { name: "New connection", isBaseline: false, config: { workload: "http", settings: { duration: 1, keepAlive: false }, probes } },
      ],
    });
    const probeMetrics = [
      { key: "app-1.cpu_percent", unit: "%", direction: "lower_is_better" as const },
      { key: "app-1.gc_count", unit: "count", direction: "lower_is_better" as const, aggregation: "sum" as const },
    ];
    await create({ ...probed, metrics: [...(probed.metrics ?? []), ...probeMetrics] });
    const error = await expectTRPCError(
      create({ ...probed, metrics: [...probeMetrics, { key: "app-1.heap_inuse", unit: "B", direction: "lower_is_better" }] }),
      "UNPROCESSABLE_CONTENT",
    );
    expect(fieldIssuesOfError(error)).toEqual([
      {
        path: ["metrics", 2, "key"],
        message: expect.stringMatching(
          /^the "http" workload of variants "Keep-alive", "New connection" never reports "app-1.heap_inuse": valid keys are latency.*; the variants. probes report app-1.cpu_percent, app-1.cpu_percent_max, app-1.rss, app-1.rss_peak, app-1.heap_used, /,
        ),
      },
    ]);
  });

  it("accepts metrics the workload reports, and one only the JVM agent's http reports (the union)", async () => {
    await create(httpExperiment());
    await create(httpExperiment({ metrics: [{ key: "error_count", unit: "count", direction: "lower_is_better" }] }));
  });

  it("refuses a metric the workload never reports: 422 on the metric's key, with the valid keys and which agent reports what; nothing is stored", async () => {
    const before = await experimentCount();
    const error = await expectTRPCError(
      create(
        httpExperiment({
          metrics: [
            { key: "latency", unit: "ms", direction: "lower_is_better" },
            { key: "vus", unit: "count", direction: "higher_is_better" },
          ],
        }),
      ),
      "UNPROCESSABLE_CONTENT",
    );
    const issues = fieldIssuesOfError(error);
    expect(issues.map((issue) => issue.path)).toEqual([["metrics", 1, "key"]]);
    expect(issues[0]?.message).toBe(
      'the "http" workload of variants "Keep-alive", "New connection" never reports "vus": valid keys are ' +
        "latency, throughput, latency_p50, latency_p95, latency_p99, throughput_peak, requests, errors, bytes_in, bytes_out, bytes_total, alloc_per_op, gc_count, gc_time, cpu_time, cpu_percent, cpu_percent_max, heap_peak, data_rate, error_count " +
        "(go-1 (go): latency, throughput, latency_p50, latency_p95, latency_p99, throughput_peak, requests, errors, bytes_in, bytes_out, bytes_total; " +
        "jvm-1 (jvm): latency, throughput, alloc_per_op, gc_count, gc_time, cpu_time, cpu_percent, cpu_percent_max, heap_peak, data_rate, error_count)",
    );
    expect(error.message).toMatch(/^The experiment asks its workloads for what they cannot give: /);
    expect(await experimentCount()).toBe(before);
  });

  it("refuses settings no agent's schema takes, naming the field and the valid settings of each agent", async () => {
    const error = await expectTRPCError(
      create(
        httpExperiment({ variants: [{ name: "k6 words", isBaseline: true, config: { workload: "http", settings: { target: "http://127.0.0.1", vus: 10 } } }] }),
      ),
      "UNPROCESSABLE_CONTENT",
    );
    const [issue] = fieldIssuesOfError(error);
    expect(issue?.path).toEqual(["variants", 0, "config", "settings"]);
    expect(issue?.message).toMatch(
      /^variant "k6 words": no agent that offers "http" takes these settings — go-1 \(go\): unknown settings "target", "vus"; valid settings are url, method, headers, /,
    );
    expect(issue?.message).toMatch(
      / \| jvm-1 \(jvm\): url: required; unknown settings "target", "vus"; valid settings are url, method, body, headers, httpVersion, /,
    );
  });

  it("accepts settings only one of the agents takes (JVM header lines)", async () => {
    await create(
      httpExperiment({
        variants: [{ name: "JVM", isBaseline: true, config: { workload: "http", settings: { url: "http://127.0.0.1:1/", headers: ["Accept: text/plain"] } } }],
      }),
    );
  });

  it("checks nothing for a workload no agent advertises, or whose agents do not list their metrics", async () => {
    await create(
      httpExperiment({
        variants: [{ name: "A", isBaseline: true, config: { workload: "k6", settings: { vus: 10 } } }],
        metrics: [{ key: "anything", unit: "ms", direction: "lower_is_better" }],
      }),
    );
    await registeredAgent(jobs, { name: "old-1", kind: "other", capabilities: [], workloads: [{ name: "legacy", settingsSchema: {} }] });
    await create(
      httpExperiment({
        variants: [{ name: "A", isBaseline: true, config: { workload: "legacy" } }],
        metrics: [{ key: "anything", unit: "ms", direction: "lower_is_better" }],
      }),
    );
  });
});

describe("Run", () => {
  it("refuses, queueing nothing, when the agents' adverts no longer report a metric of the experiment", async () => {
    const agent = await registeredAgent(jobs, {
      name: `fresh-${uniqueSuffix()}`,
      kind: "other",
      capabilities: [],
      workloads: [{ name: "fresh", settingsSchema: {} }],
    });
    const saved = await create(
      httpExperiment({
        variants: [{ name: "A", isBaseline: true, config: { workload: "fresh" } }],
        metrics: [{ key: "op_time", unit: "ns", direction: "lower_is_better" }],
      }),
    );
    // The agent now says what it reports: op_time is not among it.
    const beat = await agentApi.heartbeat(agent.credential, {
      workloads: [{ name: "fresh", settingsSchema: {}, metrics: [{ key: "wall_time", unit: "ms", direction: "lower_is_better" }] }],
    });
    expect(beat.status, JSON.stringify(beat.body)).toBe(200);
    const refused = await startBatch(db, project.id, null, { experimentSlug: saved.slug, order: "interleaved", labels: {}, maxAttempts: 3 }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe("UNPROCESSABLE");
    expect((refused as AppError).message).toBe(
      'Run would queue jobs their agents cannot do: the "fresh" workload of variant "A" never reports "op_time": valid keys are wall_time',
    );
    expect(await db.job.count({ where: { experiment: { slug: saved.slug, projectId: project.id } } })).toBe(0);
  });
});
