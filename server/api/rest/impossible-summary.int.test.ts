// A summary that cannot describe any set of values — a mean above its maximum, percentiles out of
// order, the http run detail's "n = 4, mean 450.3, sd 607.5, min 394, max 1,656" — is refused with
// 400 naming the field, on each way a run comes in: an upload, an import (whatever the importer
// made of the tool's output goes through the same schema) and an agent's complete. Nothing is
// written. On a real, migrated PostgreSQL through the exported route handlers.
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as postResults } from "~/app/api/v1/results/route";
import { POST as postImports } from "~/app/api/v1/imports/route";
import { db } from "~/server/db/client";
import { createApiKey } from "~/server/projects/api-keys";
import { createProject } from "~/server/projects/projects";
import { agentApi, batchOf, claimed, jobsProject, registeredAgent } from "~/test/agent-protocol";
import { expectRefused, fieldPaths, rowCounts } from "~/test/rest-assertions";

afterAll(() => db.$disconnect());

let apiKey: string;

beforeAll(async () => {
  const slug = `impossible-${crypto.randomBytes(4).toString("hex")}`;
  await createProject(db, { name: slug, slug, description: "" });
  apiKey = (await createApiKey(db, slug, "impossible summaries")).secret;
});

const post = (handler: (req: Request) => Promise<Response>, url: string, body: string, contentType = "application/json") =>
  handler(new Request(url, { method: "POST", headers: { authorization: `Bearer ${apiKey}`, "content-type": contentType }, body }));

const upload = (summary: object) =>
  post(
    postResults,
    "http://test.local/api/v1/results",
    JSON.stringify({
      experiment: "summaries",
      create: true,
      runs: [
        {
          variant: "a",
          metrics: [
            { key: "latency", unit: "ms", direction: "lower_is_better", samples: [1, 2, 3] },
            { key: "throughput", unit: "req/s", direction: "higher_is_better", summary },
          ],
        },
      ],
    }),
  );

describe("an impossible summary", () => {
  it("is refused over POST /api/v1/results with 400 naming the field, and nothing is stored", async () => {
    // The figure the http run detail showed: no four values between 394 and 1,656 have mean 450.3.
    const { body } = await expectRefused(db, () => upload({ n: 4, mean: 450.3, sd: 607.5, min: 394, max: 1656 }), 400, "BAD_REQUEST");
    expect(fieldPaths(body)).toContain("runs.0.metrics.1.summary.mean");
    expect(body.error.message).toMatch(/mean/);

    for (const [summary, field] of [
      [{ n: 3, mean: 12, min: 1, max: 10 }, "mean"],
      [{ n: 10, mean: 5, min: 1, max: 10, p50: 11 }, "p50"],
      [{ n: 10, mean: 5, min: 1, max: 10, p50: 6, p90: 4 }, "p90"],
      [{ n: 10, mean: 5, sd: 40, min: 1, max: 10 }, "sd"],
      [{ n: 1, mean: 5, sd: 2 }, "sd"],
      [{ n: 1, mean: 5, min: 4, max: 6 }, "min"],
      [{ n: 10, mean: 5, sum: 70 }, "sum"],
    ] as const) {
      const refused = await expectRefused(db, () => upload(summary), 400, "BAD_REQUEST");
      expect(fieldPaths(refused.body), JSON.stringify(summary)).toContain(`runs.0.metrics.1.summary.${field}`);
    }
  });

  it("is refused over POST /api/v1/imports with 400 naming the field, and nothing is stored", async () => {
    // pytest-benchmark's stats without raw rounds: the importer passes them on as the summary.
    const bench = {
      name: "test_parse",
      fullname: "tests/test_parse.py::test_parse",
      params: null,
      stats: { min: 0.001, max: 0.002, mean: 0.005, stddev: 0.0001, rounds: 20, median: 0.0015, iterations: 1 },
    };
    const file = JSON.stringify({ machine_info: {}, commit_info: {}, benchmarks: [bench], datetime: "2026-11-28T10:00:00", version: "4.0.0" });
    const { body } = await expectRefused(
      db,
      () => post(postImports, "http://test.local/api/v1/imports?format=pytest-benchmark&experiment=imported&create=true", file),
      400,
      "BAD_REQUEST",
    );
    expect(fieldPaths(body)).toContain("runs.0.metrics.0.summary.mean");
  });

  it("is refused over an agent's complete with 400 naming the field; the job stays leased and nothing is stored", async () => {
    const project = await jobsProject(db, "impossible", { measuredRuns: 1, warmupRuns: 0 });
    await batchOf(db, project, { variants: ["A"] });
    const agent = await registeredAgent(project);
    const job = await claimed(agent);
    const before = await rowCounts(db);
    const reply = await agentApi.complete(agent.credential, job.id, {
      leaseToken: job.leaseToken,
      run: { environment: {}, metrics: [{ key: "latency", summary: { n: 60000, mean: 0.706, sd: 160, min: 0.591, max: 3 } }] },
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(400);
    expect(fieldPaths(reply.body as never)).toContain("run.metrics.0.summary.sd");
    expect(await rowCounts(db)).toEqual(before);
    expect((await db.job.findUniqueOrThrow({ where: { id: job.id } })).status).toBe("leased");
  });
});
