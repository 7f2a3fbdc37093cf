// The Go agent's http run document (`versus-agent run --workload http --json`) as the real server
// stores it: uploaded through POST /api/v1/results into an experiment, then read back through the
// comparison and its charts. The latency metric keeps its HdrHistogram (the comparison's
// percentiles come from it) and the per-second series are there. Builds versus-agent with `go`;
// skipped (with the reason) where Go is not installed.
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/server/db/client";
import { getExperimentResults } from "~/server/comparison/charts";
import { createApiKey } from "~/server/projects/api-keys";
import { createProject } from "~/server/projects/projects";
import { signedInUser } from "~/test/signed-in";
import { buildGoAgent, goAvailable } from "~/scripts/lib/go-agent-build";
import { uploadStored } from "~/test/rest-assertions";

const hasGo = goAvailable();
if (!hasGo) console.warn("go-agent-http-run-document: skipped, `go` is not on PATH (install Go to build versus-agent)");

interface RunDocument {
  startedAt: string;
  environment: Record<string, unknown>;
  metrics: { key: string; histogram?: string; summary?: { n: number; p99?: number }; timeSeries?: { values: number[] }; value?: number }[];
}

afterAll(() => db.$disconnect());

describe.skipIf(!hasGo)("the Go agent's http run document on the real server", () => {
  let agent = "";
  // Built before the test, not in it: on a fresh machine the first build fetches and compiles the
  // agent's modules, which took over the test's 60 s while the other integration files ran.
  beforeAll(async () => {
    const built = await buildGoAgent(path.resolve(import.meta.dirname, "../.."), "test");
    if ("reason" in built) throw new Error(built.reason);
    agent = built.binary;
  }, 600_000);

  it("stores latency with its histogram percentiles and the per-second series", async () => {
    const run = (settings: object) =>
      JSON.parse(
        execFileSync(agent, ["run", "--workload", "http", "--json", "--settings", JSON.stringify(settings)], {
          encoding: "utf8",
          stdio: ["ignore", "pipe", "ignore"],
        }),
      ) as RunDocument;
    const closed = run({ selfTarget: { responseBytes: 256 }, connections: 2, duration: 1.5 });
    const open = run({ selfTarget: { responseBytes: 256 }, rate: 500, duration: 1.5 });

    const owner = await signedInUser(db, "owner");
    const slug = `go-http-${crypto.randomBytes(4).toString("hex")}`;
    await createProject(db, { name: slug, slug, description: "" }, owner.id);
    const key = await createApiKey(db, slug, "go agent http");
    await uploadStored(key.secret, {
      experiment: "http",
      create: true,
      runs: [
        { variant: "closed", ...closed },
        { variant: "open", ...open },
      ],
    });

    const { comparison, charts } = await getExperimentResults(db, { projectSlug: slug }, "http");
    expect(comparison.metrics.map((m) => m.key).sort()).toEqual([
      "bytes_in",
      "bytes_out",
      "bytes_total",
      "errors",
      "latency",
      "latency_p50",
      "latency_p95",
      "latency_p99",
      "requests",
      "throughput",
      "throughput_peak",
    ]);
    if (!charts) throw new Error("no charts");
    const latency = charts.metrics.find((m) => m.key === "latency");
    expect(latency?.unit).toBe("ms");
    for (const [variant, document] of [
      ["closed", closed],
      ["open", open],
    ] as const) {
      const sent = document.metrics.find((m) => m.key === "latency");
      const figure = latency?.percentiles.find((p) => p.variant === variant);
      expect(figure?.source, variant).toBe("histograms");
      expect(figure?.count, variant).toBe(sent?.summary?.n);
      // The server's p99 comes from the stored histogram: the agent's own p99 to HdrHistogram's precision.
      expect(figure?.p99, variant).toBeCloseTo(sent?.summary?.p99 ?? NaN, 0);
    }
    for (const keyWithSeries of ["throughput", "latency_p99", "errors", "bytes_in"]) {
      const series = charts.metrics.find((m) => m.key === keyWithSeries)?.timeSeries ?? [];
      expect(series.map((s) => s.variant).sort(), keyWithSeries).toEqual(["closed", "open"]);
      expect(
        series.every((s) => s.storedPoints > 0),
        keyWithSeries,
      ).toBe(true);
    }
    const throughput = charts.metrics.find((m) => m.key === "throughput")?.timeSeries.find((s) => s.variant === "closed");
    expect(throughput?.storedPoints).toBe(closed.metrics.find((m) => m.key === "throughput")?.timeSeries?.values.length);
    // Each run contributes its value — the whole run's rate, the run's own p99 — not the mean of its seconds.
    for (const key of ["throughput", "latency_p99", "errors", "bytes_in"]) {
      const runValues = charts.metrics.find((m) => m.key === key)?.runs ?? [];
      for (const [variant, document] of [
        ["closed", closed],
        ["open", open],
      ] as const) {
        const sent = document.metrics.find((m) => m.key === key)?.value;
        expect(sent, `${variant} ${key}`).toBeTypeOf("number");
        expect(runValues.find((r) => r.variant === variant)?.value, `${variant} ${key}`).toBe(sent);
      }
    }
  });
});
