// The CI gate on the bundled example history (gzip-history: 300 commits × 3 runs, +8% compress
// time at commit 120, −5% at 220), through GET /api/v1/experiments/{slugOrId}/check's route
// handler: a verdict needs significance AND a change of at least minChange % (default
// DEFAULT_MIN_CHANGE_PERCENT), so an ordinary commit whose compressed size moved by a few bytes
// is no regression; a label never contradicts the metric's direction; bad thresholds are 400s
// naming the parameter.
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET } from "~/app/api/v1/experiments/[slugOrId]/check/route";
import { db } from "~/server/db/client";
import { drainBackgroundWork } from "~/server/background/worker";
import { DEFAULT_MIN_CHANGE_PERCENT, ZCheckResult, type TCheckResult } from "~/server/schemas/check";
import { createApiKey } from "~/server/projects/api-keys";
import { gzipHistory, HISTORY_SHIFTS, RUNS_PER_COMMIT } from "~/server/examples/data/gzip-history";
import { createExperiment } from "~/server/experiments/experiments";
import { createProject } from "~/server/projects/projects";
import { ingestResults } from "~/server/runs/ingest-results";
import { fieldPaths, type ErrorBody } from "~/test/rest-assertions";

afterAll(async () => {
  await drainBackgroundWork(db);
  await db.$disconnect();
});

const upload = gzipHistory.results!();
const commitAt = (index: number) => upload.runs[index * RUNS_PER_COMMIT]!.gitCommit as string;
/** An ordinary commit (no shift) whose compressed size is a significant +0.07% off its window. */
const ORDINARY = "51b038bd";
const RAISED_LEVEL = commitAt(HISTORY_SHIFTS[0].commit);
let key = "";

beforeAll(async () => {
  const slug = `gate-${crypto.randomBytes(4).toString("hex")}`;
  const project = await createProject(db, { name: slug, slug, description: "" });
  key = (await createApiKey(db, slug, "ci")).secret;
  await createExperiment(db, slug, gzipHistory.definition);
  await ingestResults(db, upload, {
    projectId: project.id,
    projectSlug: slug,
    source: "upload",
    bodySha256: crypto.randomBytes(32).toString("hex"),
    baseUrl: "http://versus.test",
  });
});

async function check(params: Record<string, string>) {
  const url = new URL("http://test.local/api/v1/experiments/gzip-history/check");
  for (const [k, v] of Object.entries({ branch: "main", ...params })) url.searchParams.set(k, v);
  const response = await GET(new Request(url, { headers: { authorization: `Bearer ${key}` } }), { params: Promise.resolve({ slugOrId: "gzip-history" }) });
  return { status: response.status, body: (await response.json()) as unknown };
}

const metric = (result: TCheckResult, key: string) => result.metrics.find((m) => m.key === key)!;

describe("the gate's minimum change", () => {
  it("an ordinary commit's significant +0.07% in compressed size is no change at the default threshold, a regression at --min-change 0", async () => {
    expect(upload.runs.some((r) => r.gitCommit?.startsWith(ORDINARY))).toBe(true);
    const { status, body } = await check({ commit: ORDINARY });
    expect(status).toBe(200);
    const result = ZCheckResult.parse(body);
    expect(result.minChangePercent).toBe(DEFAULT_MIN_CHANGE_PERCENT);
    const bytes = metric(result, "compressed_bytes");
    expect(Math.abs(bytes.changePercent!)).toBeLessThan(1);
    expect(bytes.verdict).toBe("no_change");
    expect(bytes.reason).toContain(`below the ${DEFAULT_MIN_CHANGE_PERCENT}% minimum change`);
    expect(result.verdict).toBe("no_change");
    expect(result.markdown).toContain(`changes under ${DEFAULT_MIN_CHANGE_PERCENT}% count as no change`);

    // Without a threshold, significance alone decides: the old behaviour, on request.
    const strict = ZCheckResult.parse((await check({ commit: ORDINARY, minChange: "0" })).body);
    expect(strict.minChangePercent).toBe(0);
    expect(metric(strict, "compressed_bytes").verdict).toBe("worse");
    expect(strict.verdict).toBe("regression");
  });

  it("the +8% commit: compress time up but not significant, size down 1.5% (under 2%) — no change, never an improvement", async () => {
    const result = ZCheckResult.parse((await check({ commit: RAISED_LEVEL })).body);
    const time = metric(result, "compress_time");
    expect(time.changePercent!).toBeGreaterThan(5);
    expect(time.verdict).toBe("no_change");
    expect(result.verdict).toBe("no_change");
    expect(result.markdown).not.toContain("Improvement");
    expect(result.markdown).not.toMatch(/- Better:/);
  });

  it("a change above the threshold keeps its significant verdict (the −1.5% size at a 1% threshold is better)", async () => {
    const result = ZCheckResult.parse((await check({ commit: RAISED_LEVEL, minChange: "1" })).body);
    const bytes = metric(result, "compressed_bytes");
    expect(bytes.changePercent!).toBeLessThan(-1);
    expect(bytes.verdict).toBe("better");
    expect(result.verdict).toBe("improvement");
    expect(result.markdown).toContain("changes under 1% count as no change");
  });

  it("refuses a bad threshold with a 400 naming minChange", async () => {
    for (const bad of ["-1", "abc", "1001", ""]) {
      const { status, body } = await check({ commit: ORDINARY, minChange: bad });
      expect(status, bad).toBe(400);
      expect(fieldPaths(body as ErrorBody), bad).toContain("minChange");
    }
  });

  it('a call without its commit says the commit is required (not Zod\'s "expected string, received undefined")', async () => {
    const url = new URL("http://test.local/api/v1/experiments/gzip-history/check");
    const response = await GET(new Request(url, { headers: { authorization: `Bearer ${key}` } }), { params: Promise.resolve({ slugOrId: "gzip-history" }) });
    expect(response.status).toBe(400);
    const body = (await response.json()) as ErrorBody;
    expect(body.error.message).toBe("Invalid input — commit: required (string); branch: required (string)");
    expect(fieldPaths(body)).toEqual(["commit", "branch"]);
  });
});
