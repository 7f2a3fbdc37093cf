// The write-ups a fresh install can re-run on the Go agent (S3 upload; HTTP vs gRPC, 1 MB; cache and scale-out), end to
// end: a real server, the Go agent enrolled in the example's project, Run, and the agent starting
// the bundled target's processes for each job. Every figure the write-ups published is then in the
// comparison, with values that hang together (the same settings as shipped, but 3 s measured — 40
// uploads for S3 — and two runs per variant to keep the suite short). Skipped (saying so) where Go
// is not installed.
import { afterAll, describe, expect, inject, it } from "vitest";
import { createPrismaClient } from "~/server/db/client";
import { cacheScaleOutRunnable } from "~/server/examples/data/cache-scale-out-runnable";
import type { ExampleDefinition } from "~/server/examples/data/common";
import { httpVsGrpcRunnable } from "~/server/examples/data/http-vs-grpc-runnable";
import { s3MailRunnable, s3SmsRunnable } from "~/server/examples/data/s3-upload-runnable";
import { goAgentKit, hasGo } from "./go-agent-kit";
import { startAgent } from "./processes";
import { runShortened } from "./runnable-examples";

const databaseUrl = inject("databaseUrl");
const db = createPrismaClient(databaseUrl);
const { binary, track, context, ready } = goAgentKit("go-runnable-write-ups.rel.test");

afterAll(async () => {
  await db.$disconnect();
});

/** Load workloads measured for 3 s after 1 s of warm-up; the s3 workload counts uploads. */
const LOAD_SHORT = { duration: 3, warmupSeconds: 1 };

/** Runs the shortened example on a fresh Go agent (runnable-examples.ts). */
const runExample = (definition: ExampleDefinition, label: string, short: Record<string, unknown> = LOAD_SHORT) =>
  runShortened(
    db,
    { databaseUrl, track, context, agent: (url, project, name) => ready(track(startAgent({ url, enrollmentToken: project.token, name, goBinary: binary() }))) },
    definition,
    label,
    short,
  );

describe.skipIf(!hasGo)("the runnable write-ups on the Go agent, with the targets it starts", () => {
  it("HTTP vs gRPC, 1 MB: every published figure per variant, the client's and the server's; gRPC/Stream slower than gRPC/Unary", async () => {
    const { comparison, figure, runs } = await runExample(httpVsGrpcRunnable.definition, "grpc-write-up");
    const variants = ["gRPC/Unary", "HTTP/Binary", "HTTP/JSON", "gRPC/Stream"];
    expect(comparison.variants.map((variant) => [variant.name, variant.runs])).toEqual(variants.map((name) => [name, 2]));
    for (const variant of variants) {
      for (const metric of httpVsGrpcRunnable.definition.metrics)
        expect([variant, metric.key, typeof figure(metric.key, variant)]).toEqual([variant, metric.key, "number"]);
      const value = (key: string) => figure(key, variant) as number;
      expect(value("throughput"), variant).toBeGreaterThan(0);
      expect(value("throughput_peak"), variant).toBeGreaterThanOrEqual(value("throughput") * 0.5);
      expect(value("latency_p50"), variant).toBeLessThanOrEqual(value("latency_p95"));
      expect(value("latency_p95"), variant).toBeLessThanOrEqual(value("latency_p99"));
      // Every request carried 1 MiB from the server (more on the wire: headers, framing, base64).
      expect(value("bytes_total"), variant).toBeGreaterThanOrEqual(value("requests") * 1_048_576);
      expect(value("server.cpu_percent"), variant).toBeGreaterThan(0);
      expect(value("server.heap_inuse_peak"), variant).toBeGreaterThan(1_048_576);
      expect(value("server.gc_count"), variant).toBeGreaterThanOrEqual(0);
      expect(value("server.gc_time"), variant).toBeGreaterThanOrEqual(0);
    }
    // Base64 in JSON moves a third more bytes per request than the binary body.
    expect((figure("bytes_total", "HTTP/JSON") as number) / (figure("requests", "HTTP/JSON") as number)).toBeGreaterThan(1.3 * 1_048_576);
    expect(figure("latency", "gRPC/Stream") as number).toBeGreaterThan(figure("latency", "gRPC/Unary") as number);
    // Each run says which processes the agent started for it.
    for (const run of runs) expect(JSON.stringify(run.environment)).toContain("17811");
  }, 600_000);

  it("cache and scale-out: the cache and the second server raise TPS at the constant rate; each server's CPU is reported", async () => {
    const { figure } = await runExample(cacheScaleOutRunnable.definition, "cache-write-up");
    const variants = ["No cache", "Cache", "Balancer, one server", "Balancer, two servers"];
    for (const variant of variants) {
      for (const key of ["throughput", "throughput_peak", "errors", "latency_p99", "app-1.cpu_percent"])
        expect([variant, key, typeof figure(key, variant)]).toEqual([variant, key, "number"]);
    }
    expect(typeof figure("app-2.cpu_percent", "Balancer, two servers")).toBe("number");
    expect(figure("app-2.cpu_percent", "No cache")).toBeUndefined();
    // One server answers about 95 requests a second of the 150 offered; cached, or shared by two, it keeps up.
    expect(figure("throughput", "Cache") as number).toBeGreaterThan(1.2 * (figure("throughput", "No cache") as number));
    expect(figure("throughput", "Balancer, two servers") as number).toBeGreaterThan(1.2 * (figure("throughput", "Balancer, one server") as number));
    expect(figure("errors", "Cache")).toBe(0);
  }, 600_000);

  it("S3 upload, e-mail and SMS: gzip sends a twentieth of the e-mail and more than the SMS, and the fixed request cost keeps the times close", async () => {
    for (const [example, label] of [
      [s3MailRunnable, "s3-mail-write-up"],
      [s3SmsRunnable, "s3-sms-write-up"],
    ] as const) {
      const { figure } = await runExample(example.definition, label, { operations: 40, warmupOperations: 5 });
      for (const variant of ["Plain", "Gzip"])
        for (const metric of example.definition.metrics)
          expect([label, variant, metric.key, typeof figure(metric.key, variant)]).toEqual([label, variant, metric.key, "number"]);
      const sent = (variant: string) => figure("sent_bytes", variant) as number;
      if (label === "s3-mail-write-up") expect(sent("Gzip")).toBeLessThan(sent("Plain") / 20);
      else expect(sent("Gzip")).toBeGreaterThan(sent("Plain"));
      // Every PUT waits the target's 20 ms: neither side's upload can be faster than that.
      for (const variant of ["Plain", "Gzip"]) expect(figure("put_time", variant) as number).toBeGreaterThanOrEqual(20);
      expect(figure("compress_time", "Plain")).toBe(0);
    }
  }, 600_000);
});
