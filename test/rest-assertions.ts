// Shared by the REST integration tests: the error body shape, and "refused, and the database
// did not change" — the promise every bad request must keep.
import { expect } from "vitest";
import type { Db } from "~/server/db/client";
import type { TUploadResponse } from "~/server/schemas/results";

export interface ErrorBody {
  error: { code: string; message: string; details?: { fields: { path: (string | number)[]; message: string }[] } };
}

export type UploadBody = TUploadResponse;

export const fieldPaths = (body: ErrorBody) => (body.error.details?.fields ?? []).map((f) => f.path.join("."));

/** Row counts of everything an upload or import can write. */
export async function rowCounts(db: Db) {
  const [experiments, variants, metrics, runs, results, series, ingestRequests] = await Promise.all([
    db.experiment.count(),
    db.variant.count(),
    db.metric.count(),
    db.run.count(),
    db.runMetricResult.count(),
    db.runTimeSeries.count(),
    db.ingestRequest.count(),
  ]);
  return { experiments, variants, metrics, runs, results, series, ingestRequests };
}

/** Runs `request`, expects the refusal `status`/`code`, and checks nothing was written. */
export async function expectRefused(db: Db, request: () => Promise<Response>, status: number, code: string) {
  const before = await rowCounts(db);
  const response = await request();
  const body = (await response.json()) as ErrorBody;
  expect({ status: response.status, code: body.error?.code }, JSON.stringify(body)).toEqual({ status, code });
  expect(await rowCounts(db)).toEqual(before);
  return { response, body };
}

/** POSTs `body` to /api/v1/results with `key` and expects it stored (201). */
export async function uploadStored(key: string, body: object) {
  const { POST } = await import("~/app/api/v1/results/route");
  const response = await POST(
    new Request("http://test.local/api/v1/results", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
      body: JSON.stringify(body),
    }),
  );
  expect(response.status, await response.clone().text()).toBe(201);
}
