// POST /api/v1/results with finite inputs whose summary is not: every figure stored at ingest
// must be a finite number, or the upload is refused naming the field, storing nothing. Figures
// that can be represented are stored exactly however large the values (no intermediate
// overflow), and the experiment stays readable. Files share one database: this file works in a
// project of its own and compares row counts before and after.
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET } from "~/app/api/v1/experiments/[slugOrId]/comparison/route";
import { POST } from "~/app/api/v1/results/route";
import { db } from "~/server/db/client";
import { encodeHistogram, newHistogram } from "~/server/runs/histogram";
import { createApiKey } from "~/server/projects/api-keys";
import { createProject } from "~/server/projects/projects";
import { expectRefused, fieldPaths, type UploadBody } from "~/test/rest-assertions";

afterAll(() => db.$disconnect());

let key: string;
beforeAll(async () => {
  const slug = `overflow-${crypto.randomBytes(4).toString("hex")}`;
  await createProject(db, { name: slug, slug, description: "" });
  key = (await createApiKey(db, slug, "overflow test")).secret;
});

function post(body: object) {
  return POST(
    new Request("http://test.local/api/v1/results", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
      body: JSON.stringify(body),
    }),
  );
}

const upload = (experiment: string, metric: object, variant = "a") => ({
  experiment,
  create: true,
  runs: [{ variant, metrics: [{ key: "latency", unit: "ms", direction: "lower_is_better", ...metric }] }],
});
const base64 = (values: number[]) => Buffer.from(Float64Array.from(values).buffer).toString("base64");

function histogramOf(values: number[]): string {
  const histogram = newHistogram();
  try {
    for (const value of values) histogram.recordValue(value);
    return encodeHistogram(histogram).toString("base64");
  } finally {
    histogram.destroy();
  }
}

describe("figures beyond the float64 range are refused, naming the field", () => {
  it("[1.7e308, 1.7e308, -1.7e308]: its sd cannot be represented → 400 on samples", async () => {
    const { body } = await expectRefused(db, () => post(upload("overflow-sd", { samples: [1.7e308, 1.7e308, -1.7e308] })), 400, "BAD_REQUEST");
    expect(fieldPaths(body)).toEqual(["runs.0.metrics.0.samples"]);
    expect(body.error.message).toMatch(/runs\.0\.metrics\.0\.samples: .*sd .*beyond/);
  });

  it("[1e308, 1e308]: its sum cannot be represented → 400 on samples", async () => {
    const { body } = await expectRefused(db, () => post(upload("overflow-sum", { samples: [1e308, 1e308] })), 400, "BAD_REQUEST");
    expect(fieldPaths(body)).toEqual(["runs.0.metrics.0.samples"]);
    expect(body.error.message).toMatch(/sum .*beyond/);
  });

  it("the same in samplesBase64 → 400 on samplesBase64", async () => {
    const { body } = await expectRefused(
      db,
      () => post(upload("overflow-base64", { samplesBase64: base64([1.7e308, 1.7e308, -1.7e308]) })),
      400,
      "BAD_REQUEST",
    );
    expect(fieldPaths(body)).toEqual(["runs.0.metrics.0.samplesBase64"]);
  });

  it("a time series whose figures overflow → 400 on its values", async () => {
    const { body } = await expectRefused(
      db,
      () => post(upload("overflow-series", { timeSeries: { intervalMs: 1000, values: [1e308, 1e308] } })),
      400,
      "BAD_REQUEST",
    );
    expect(fieldPaths(body)).toEqual(["runs.0.metrics.0.timeSeries.values"]);
  });

  it("an intervalMs whose offsets overflow → 400 on intervalMs", async () => {
    const { body } = await expectRefused(
      db,
      () => post(upload("overflow-interval", { timeSeries: { intervalMs: 1e308, values: [1, 2, 3] } })),
      400,
      "BAD_REQUEST",
    );
    expect(fieldPaths(body)).toEqual(["runs.0.metrics.0.timeSeries.intervalMs"]);
  });

  it("a histogramScale that puts the recorded values beyond the range → 400 on histogramScale", async () => {
    const { body } = await expectRefused(
      db,
      () => post(upload("overflow-histogram", { histogram: histogramOf([1000, 2000, 1e9]), histogramScale: 1e-305 })),
      400,
      "BAD_REQUEST",
    );
    expect(fieldPaths(body)).toEqual(["runs.0.metrics.0.histogramScale"]);
  });
});

describe("tiny values", () => {
  it("samples below 1e-305 are stored with finite figures (choosing their histogram scale used to loop forever)", async () => {
    const response = await post(upload("tiny", { samples: [5e-324, 1e-310, 2e-306] }));
    expect(response.status, await response.clone().text()).toBe(201);
    const stored = await db.runMetricResult.findFirstOrThrow({ where: { runId: ((await response.json()) as UploadBody).runs[0]?.id } });
    expect([stored.min, stored.max]).toEqual([5e-324, 2e-306]);
    expect([stored.mean, stored.sd, stored.sum, stored.p50, stored.p999, stored.histogramScale].every(Number.isFinite)).toBe(true);
  });
});

describe("huge but representable figures", () => {
  it("are stored exactly, and the experiment's comparison still answers", async () => {
    const first = await post(upload("huge", { samples: [1e300, -1e300, 1e300] }));
    expect(first.status, await first.clone().text()).toBe(201);
    const second = await post(upload("huge", { samples: [3e300, 1e300, 2e300] }, "b"));
    expect(second.status, await second.clone().text()).toBe(201);
    const runId = ((await first.json()) as UploadBody).runs[0]?.id;
    const stored = await db.runMetricResult.findFirstOrThrow({ where: { runId } });
    expect(Math.abs(stored.mean / (1e300 / 3) - 1)).toBeLessThan(1e-15);
    expect(stored.sum).toBe(1e300);
    expect(Math.abs(stored.sd! / (2e300 / Math.sqrt(3)) - 1)).toBeLessThan(1e-15);

    const response = await GET(new Request("http://test.local/api/v1/experiments/huge/comparison", { headers: { authorization: `Bearer ${key}` } }), {
      params: Promise.resolve({ slugOrId: "huge" }),
    });
    expect(response.status, await response.clone().text()).toBe(200);
  });
});
