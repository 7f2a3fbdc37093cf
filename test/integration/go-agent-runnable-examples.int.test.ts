// The runnable examples the Go agent runs (npm start's local agent when Go is installed): every
// variant's settings pass the Go workload's own check (`versus-agent run --check`, what the agent
// does before a job), and every metric the example asks for is one the workload reports, in the
// same unit (or a probe of its variants does). Builds versus-agent as npm start does; skipped
// (saying so) where Go is not installed.
import { execFileSync, spawnSync } from "node:child_process";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { buildGoAgent, goAvailable } from "~/scripts/lib/go-agent-build";
import { exampleExperiments } from "~/server/examples/data/catalog";
import { workloadOf as workloadOfVariant } from "~/server/schemas/workload";
import { probeMetrics } from "~/server/workloads/probe-metrics";

const hasGo = goAvailable();
if (!hasGo) console.warn("go-agent-runnable-examples: skipped, `go` is not on PATH (install Go to build versus-agent)");

interface Advert {
  name: string;
  metrics: { key: string; unit: string }[];
}

describe.skipIf(!hasGo)("runnable examples on the Go agent", () => {
  let binary = "";
  let adverts: Advert[] = [];
  beforeAll(async () => {
    const built = await buildGoAgent(path.resolve(import.meta.dirname, "../.."), "test");
    if ("reason" in built) throw new Error(built.reason);
    binary = built.binary;
    adverts = JSON.parse(execFileSync(binary, ["workloads", "--json"], { encoding: "utf8" })) as Advert[];
  }, 300_000);

  const runnable = exampleExperiments.filter((example) => example.results === undefined);
  const workloadOf = (variant: { config: unknown }) => variant.config as { workload: string; settings?: unknown };

  it("covers the gzip, http, S3, HTTP-vs-gRPC and cache/scale-out examples", () => {
    const goNames = new Set(adverts.map((advert) => advert.name));
    const forGo = runnable.filter((example) => example.definition.variants.every((variant) => goNames.has(workloadOf(variant).workload)));
    expect(forGo.map((example) => example.definition.slug)).toEqual([
      "gzip-payloads-runnable",
      "http-keepalive-runnable",
      "s3-upload-mail-runnable",
      "s3-upload-sms-runnable",
      "http-vs-grpc-1mb-runnable",
      "cache-scale-out-runnable",
    ]);
  });

  it("has settings the Go workloads accept and metrics they report, in their units", () => {
    for (const example of runnable) {
      for (const variant of example.definition.variants) {
        const { workload, settings } = workloadOf(variant);
        const advert = adverts.find((candidate) => candidate.name === workload);
        if (!advert) continue;
        const check = spawnSync(binary, ["run", "--workload", workload, "--check", "--settings", JSON.stringify(settings ?? {})], { encoding: "utf8" });
        expect(`${example.definition.slug} ${variant.name}: ${check.status === 0 ? "ok" : check.stderr.trim()}`).toBe(
          `${example.definition.slug} ${variant.name}: ok`,
        );
        // The workload's own metrics, and those of the probes of every variant (a server's CPU, heap, GC).
        const probes = example.definition.variants.flatMap((other) => workloadOfVariant(other.config)?.probes ?? []);
        const units = new Map([...advert.metrics, ...probes.flatMap(probeMetrics)].map((metric) => [metric.key, metric.unit]));
        for (const metric of example.definition.metrics)
          expect([example.definition.slug, metric.key, units.get(metric.key)]).toEqual([example.definition.slug, metric.key, metric.unit]);
      }
    }
  });

  it("refuses a bad setting with the field named, as a job would be failed", () => {
    const check = spawnSync(binary, ["run", "--workload", "http", "--check", "--settings", JSON.stringify({ connections: 0 })], { encoding: "utf8" });
    expect(check.status).toBe(2);
    expect(check.stderr).toContain("settings.connections");
  });
});
