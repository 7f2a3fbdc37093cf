// An upload's transaction runs one query at a time on its connection. Prisma's `include` of two
// relations inside an interactive transaction sends both queries at once on the transaction's one
// connection, which node-postgres deprecates ("Calling client.query() when the client is already
// executing a query") and pg 9 refuses. Stored, stored again into the existing experiment, and
// replayed (also by two requests with the same key at once): no such warning.
import { afterAll, beforeAll, expect, it } from "vitest";
import { db } from "~/server/db/client";
import { ingestResults, type IngestOptions } from "~/server/runs/ingest-results";
import type { TResultsUpload } from "~/server/schemas/results";
import { uploadProject } from "~/test/upload-project";

let options: IngestOptions;
const warnings: string[] = [];
const onWarning = (warning: Error) => warnings.push(warning.message);

beforeAll(async () => {
  options = { ...(await uploadProject(db, "one-query")), bodySha256: "same" };
  process.on("warning", onWarning);
});
afterAll(async () => {
  process.off("warning", onWarning);
  await db.$disconnect();
});

const upload = (value: number): TResultsUpload => ({
  experiment: "one-query",
  create: true,
  runs: ["base", "cand"].map((variant) => ({
    variant,
    status: "succeeded" as const,
    environment: {},
    tags: [],
    metrics: [
      { key: "latency", unit: "ms", direction: "lower_is_better" as const, samples: [value, value + 1] },
      { key: "alloc", unit: "B", direction: "lower_is_better" as const, summary: { n: 2, mean: value } },
    ],
  })),
});

it("stores, stores again and replays without two queries at once on one connection", async () => {
  await ingestResults(db, upload(1), { ...options, idempotencyKey: "first" });
  await ingestResults(db, upload(2), { ...options, idempotencyKey: "second" });
  const [a, b] = await Promise.all([
    ingestResults(db, upload(3), { ...options, idempotencyKey: "third" }),
    ingestResults(db, upload(3), { ...options, idempotencyKey: "third" }),
  ]);
  expect(a.runs.map((run) => run.id)).toEqual(b.runs.map((run) => run.id));
  expect((await ingestResults(db, upload(2), { ...options, idempotencyKey: "second" })).replayed).toBe(true);
  // process.emitWarning delivers on the next tick.
  await new Promise((resolve) => setImmediate(resolve));
  expect(warnings.filter((message) => message.includes("already executing a query"))).toEqual([]);
});
