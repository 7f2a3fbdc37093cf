// The write-ups a fresh install re-runs on the JVM agent (the Kafka serializers; the upload CPU's
// provider swap), end to end: a real server, the JVM agent started as `npm start` starts it (only
// the workloads the JVM alone has, and the local Kafka broker's jar, from which its kafka workload
// starts a broker for each run), Run, and every figure the write-ups published in the comparison,
// with values that hang together. Shorter than shipped (2,000 records per operation instead of
// 100,000, a few iterations, two runs per variant). Skipped (saying so) where Java or Maven is missing.
import path from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { jvmAgentJars } from "~/scripts/lib/jvm-agent-build";
import { createPrismaClient } from "~/server/db/client";
import type { ExampleDefinition } from "~/server/examples/data/common";
import { kafkaSerializersRunnable } from "~/server/examples/data/kafka-serializers-runnable";
import { uploadCpuRunnable } from "~/server/examples/data/upload-cpu-runnable";
import { jvmOnlyWorkloads } from "~/server/workloads/built-in-agents";
import { jvmAgentKit } from "./jvm-agent-kit";
import { eventually, startJvmAgent } from "./processes";
import { runShortened } from "./runnable-examples";

const databaseUrl = inject("databaseUrl");
const db = createPrismaClient(databaseUrl);
const { tools, track, context } = jvmAgentKit("jvm-runnable-write-ups.rel.test.ts");
afterAll(() => db.$disconnect());

/** Runs the shortened example on a JVM agent started with npm start's environment. */
const runExample = (definition: ExampleDefinition, label: string, short: Record<string, unknown>) =>
  runShortened(
    db,
    {
      databaseUrl,
      track,
      context,
      agent: async (url, project, name) => {
        const agent = track(
          startJvmAgent({
            url,
            enrollmentToken: project.token,
            name,
            env: {
              VERSUS_AGENT_WORKLOADS: jvmOnlyWorkloads().join(","),
              VERSUS_KAFKA_BROKER_JAR: jvmAgentJars(path.resolve(import.meta.dirname, "../..")).brokerJar,
            },
          }),
        );
        return eventually(`${name} to be ready`, () => agent.lines.some((line) => line.includes("event=agent.ready")), { context });
      },
    },
    definition,
    label,
    short,
  );

describe.skipIf(!tools)("the runnable write-ups on the JVM agent", () => {
  it("Kafka serializers: send time, message size and rate per serializer, each run on a broker of its own; Spring's epoch-millis dates make smaller messages", async () => {
    const { comparison, figure, runs } = await runExample(kafkaSerializersRunnable.definition, "kafka-write-up", {
      records: 2000,
      warmupRecords: 500,
      iterations: 3,
    });
    const variants = ["SPRING_JSON", "JACKSON_OBJECT_MAPPER", "KOTLINX_JSON"];
    expect(comparison.variants.map((variant) => [variant.name, variant.runs])).toEqual(variants.map((name) => [name, 2]));
    for (const variant of variants) {
      for (const metric of kafkaSerializersRunnable.definition.metrics)
        expect([variant, metric.key, typeof figure(metric.key, variant)]).toEqual([variant, metric.key, "number"]);
      expect(figure("send_time", variant) as number, variant).toBeGreaterThan(0);
      expect(figure("records_per_second", variant) as number, variant).toBeGreaterThan(0);
    }
    const size = (variant: string) => figure("message_bytes", variant) as number;
    // The same events: Spring writes dates as epoch millis, the other two as ISO-8601 strings, byte for byte alike.
    expect(size("SPRING_JSON")).toBeLessThan(size("JACKSON_OBJECT_MAPPER") - 5);
    expect(size("KOTLINX_JSON")).toBeCloseTo(size("JACKSON_OBJECT_MAPPER"), 6);
    // Each run sent to the broker the agent started for it, and says so.
    const brokers = runs.map((run) => (run.environment as { kafka?: { bootstrapServers?: string } }).kafka?.bootstrapServers);
    for (const servers of brokers) expect(servers).toMatch(/^(localhost|127\.0\.0\.1):\d+$/);
  }, 600_000);

  it("Upload CPU, provider swap: time per 25 MB and the JVM's CPU, mean and busiest second, per provider", async () => {
    const { figure } = await runExample(uploadCpuRunnable.definition, "provider-write-up", { steadyState: false, warmupIterations: 1, iterations: 3 });
    for (const variant of ["SunJCE", "Bouncy Castle"]) {
      for (const metric of uploadCpuRunnable.definition.metrics)
        expect([variant, metric.key, typeof figure(metric.key, variant)]).toEqual([variant, metric.key, "number"]);
      const value = (key: string) => figure(key, variant) as number;
      expect(value("cpu_percent"), variant).toBeGreaterThan(0);
      expect(value("cpu_percent_max"), variant).toBeGreaterThanOrEqual(value("cpu_percent") * 0.9);
      // 25 MB per operation: the rate and the time per buffer are one figure seen two ways.
      expect(value("data_rate") * (value("encrypt_time") / 1000), variant).toBeGreaterThan(20);
      expect(value("data_rate") * (value("encrypt_time") / 1000), variant).toBeLessThan(30);
    }
  }, 600_000);
});
