// The built-in workloads: gzip's Plain and Gzip sides, its seeded payload, the sleep workload's
// stop, and the registry's settings checks and adverts.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { MemoryRecorder } from "./recorder";
import { builtInWorkloads } from "./registry";
import { textPayload } from "./text-payload";

async function run(name: string, settings: unknown, signal = new AbortController().signal) {
  const prepared = builtInWorkloads().prepare(name, settings);
  if ("problem" in prepared) throw new Error(prepared.problem);
  const recorder = new MemoryRecorder();
  await prepared.run(recorder, signal);
  return recorder;
}

describe("text payload", () => {
  it("has exactly the size asked for, the same bytes for the same seed, and compresses like text", () => {
    const a = textPayload(51_200, 7);
    expect(a.length).toBe(51_200);
    expect(textPayload(51_200, 7).equals(a)).toBe(true);
    expect(textPayload(51_200, 8).equals(a)).toBe(false);
    const ratio = a.length / zlib.gzipSync(a).length;
    expect(ratio).toBeGreaterThan(3);
    expect(textPayload(10, 1).length).toBe(10);
  });
});

describe("gzip workload", () => {
  it("Gzip: one time sample per measured operation, fewer bytes out than in", async () => {
    const recorder = await run("gzip", { sizeBytes: 8192, iterations: 7, warmupIterations: 2, level: 9 });
    expect(recorder.samples.get("compress_time")).toHaveLength(7);
    const out = recorder.summaries.get("payload_bytes")!;
    const input = recorder.summaries.get("input_bytes")!;
    expect(input.mean).toBe(8192);
    expect(out.mean).toBe(zlib.gzipSync(textPayload(8192, 1), { level: 9 }).length);
    expect(out).toMatchObject({ n: 7, sd: 0, min: out.mean, max: out.mean });
  });

  it("Plain (compress: false): the payload goes as it is", async () => {
    const recorder = await run("gzip", { sizeBytes: 8192, iterations: 3, compress: false });
    expect(recorder.summaries.get("payload_bytes")?.mean).toBe(8192);
  });

  it("level 0 is gzip framing without compression: bigger than Plain", async () => {
    const recorder = await run("gzip", { sizeBytes: 100, iterations: 1, level: 0 });
    expect(recorder.summaries.get("payload_bytes")!.mean).toBeGreaterThan(100);
  });

  it("stops between operations when its signal aborts", async () => {
    const controller = new AbortController();
    controller.abort("cancelled");
    await expect(run("gzip", { iterations: 100_000 }, controller.signal)).rejects.toThrow("stopped");
  });
});

describe("sleep workload", () => {
  it("records how long it slept, and stops early when aborted", async () => {
    const recorder = await run("sleep", { ms: 5 });
    expect(recorder.samples.get("slept_ms")![0]).toBeGreaterThanOrEqual(4);
    const controller = new AbortController();
    const sleeping = run("sleep", { ms: 60_000 }, controller.signal);
    controller.abort("shutdown");
    await expect(sleeping).rejects.toThrow("stopped");
  });
});

describe("workload registry", () => {
  it("advertises what the repository says it does (server/workloads/built-in/reference-workloads.json, which the dashboard reads)", () => {
    const stored = JSON.parse(
      fs.readFileSync(path.resolve(import.meta.dirname, "../../../server/workloads/built-in/reference-workloads.json"), "utf8"),
    ) as unknown;
    expect(JSON.parse(JSON.stringify(builtInWorkloads().adverts())), "run server/workloads/built-in/produce.sh from the repository root").toEqual(stored);
  });

  it("advertises each workload's settings as JSON Schema, defaults included", () => {
    const adverts = builtInWorkloads().adverts();
    expect(adverts.map((advert) => advert.name)).toEqual(["gzip", "sleep"]);
    const gzip = adverts[0]!.settingsSchema as {
      type: string;
      properties: Record<string, { type: string; default?: unknown; minimum?: number; maximum?: number }>;
      additionalProperties?: boolean;
    };
    expect(gzip.type).toBe("object");
    expect(gzip.properties.level).toMatchObject({ type: "integer", minimum: 0, maximum: 9, default: 6 });
    expect(gzip.properties.compress).toMatchObject({ type: "boolean", default: true });
    expect(gzip.additionalProperties).toBe(false);
  });

  it("advertises each workload's metrics with their aggregation, and each setting's unit", () => {
    const [gzip, sleep] = builtInWorkloads().adverts();
    expect(gzip?.metrics).toEqual([
      {
        key: "compress_time",
        unit: "us",
        direction: "lower_is_better",
        aggregation: "median",
        description: "Time to prepare the payload for sending, per operation",
      },
      { key: "payload_bytes", unit: "B", direction: "lower_is_better", aggregation: "mean", description: "Bytes sent: the payload after compression" },
      { key: "input_bytes", unit: "B", direction: "lower_is_better", aggregation: "mean", description: "Bytes of the payload before compression" },
    ]);
    expect(sleep?.metrics).toEqual([
      { key: "slept_ms", unit: "ms", direction: "lower_is_better", aggregation: "mean", description: "How long the sleep took" },
    ]);
    const properties = (gzip?.settingsSchema as { properties: Record<string, Record<string, unknown>> }).properties;
    expect(properties.sizeBytes).toMatchObject({ "x-unit": "B", description: "Size of the generated text payload, in bytes" });
    expect((sleep?.settingsSchema as { properties: Record<string, Record<string, unknown>> }).properties.ms).toMatchObject({ "x-unit": "ms" });
  });

  it("fills defaults and names every bad setting", () => {
    const registry = builtInWorkloads();
    const ok = registry.prepare("gzip", {});
    expect("problem" in ok ? ok.problem : ok.settings).toEqual({ sizeBytes: 51_200, compress: true, level: 6, iterations: 100, warmupIterations: 10, seed: 1 });
    const foreign = registry.prepare("sleep", { target: "x", vus: 10 });
    expect("problem" in foreign && foreign.problem).toBe(
      `bad settings for workload "sleep": settings: unknown settings 'target', 'vus'; valid settings are ms`,
    );
    const bad = registry.prepare("gzip", { compress: "yes", iterations: 1.5 });
    expect("problem" in bad && bad.problem).toBe(
      'bad settings for workload "gzip": compress: Invalid input: expected boolean, received string; iterations: Invalid input: expected int, received number',
    );
  });
});
