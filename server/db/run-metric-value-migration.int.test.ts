// The migration that gives a run's metric its explicit value must keep every comparison's number
// and never leave a summary that contradicts itself presented as sound: rows of the old Go http
// workload (and the other producers whose summaries redefined their fields) keep their old mean as
// their value and get the summary of their stored per-second series; any row that still
// contradicts itself is flagged; every other row is left exactly as it was.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { summaryContradictions } from "../schemas/summary-rules";
import { databaseBeforeMigration } from "../../test/database-before-migration";
import { withClient, type ThrowawayDatabase } from "../../test/throwaway-database";
import { migrate } from "./migrator";

const MIGRATION = "20261128100000_run_metric_value";

let database: ThrowawayDatabase;

beforeAll(async () => {
  database = await databaseBeforeMigration(inject("adminDatabaseUrl"), "runvalue", MIGRATION);
});

afterAll(() => database.drop());

interface Row {
  id: string;
  n: string;
  mean: number;
  sd: number | null;
  min: number | null;
  max: number | null;
  p50: number | null;
  sum: number | null;
  value: number | null;
  summaryNote: string | null;
}

describe(MIGRATION, () => {
  it("keeps each redefined row's mean as its value, summarises its per-second series, and flags what still contradicts itself", async () => {
    await withClient(database.url, async (client) => {
      const sql = (text: string, values: unknown[] = []) => client.query(text, values);
      await sql(`INSERT INTO "Project" (id, slug, name, "updatedAt") VALUES ('p', 'p', 'P', now())`);
      await sql(`BEGIN`);
      await sql(`INSERT INTO "Experiment" (id, "projectId", slug, title, "updatedAt") VALUES ('e', 'p', 'e', 'E', now())`);
      await sql(`INSERT INTO "Variant" (id, "experimentId", name, "isBaseline", position) VALUES ('v', 'e', 'a', true, 0)`);
      await sql(`COMMIT`);
      const metrics = ["throughput", "latency_p50", "errors", "bytes_in", "http_reqs", "latency", "tps"];
      for (const [position, key] of metrics.entries()) {
        await sql(`INSERT INTO "Metric" (id, "experimentId", key, unit, direction, position) VALUES ($1, 'e', $1, 'x', 'lower_is_better', $2)`, [
          key,
          position,
        ]);
      }
      const http = JSON.stringify({ http: { target: "http://127.0.0.1:8080/", responses: 1801, durationSeconds: 4.2 } });
      await sql(
        `INSERT INTO "Run" (id, "experimentId", "variantId", source, "sourceDetail", repetition, environment) VALUES ('go', 'e', 'v', 'agent', 'agent go-1', 0, $1::jsonb)`,
        [http],
      );
      await sql(`INSERT INTO "Run" (id, "experimentId", "variantId", source, "sourceDetail", repetition) VALUES ('k6', 'e', 'v', 'import', 'k6', 1)`);
      await sql(`INSERT INTO "Run" (id, "experimentId", "variantId", source, "sourceDetail", repetition) VALUES ('ng', 'e', 'v', 'import', 'ngrinder', 2)`);
      await sql(`INSERT INTO "Run" (id, "experimentId", "variantId", source, repetition) VALUES ('up', 'e', 'v', 'upload', 3)`);
      const result = (id: string, run: string, metric: string, f: Record<string, number | null>) =>
        sql(`INSERT INTO "RunMetricResult" (id, "runId", "metricId", n, mean, sd, min, max, p50, sum) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`, [
          id,
          run,
          metric,
          f.n,
          f.mean,
          f.sd ?? null,
          f.min ?? null,
          f.max ?? null,
          f.p50 ?? null,
          f.sum ?? null,
        ]);
      const series = (run: string, metric: string, values: number[]) =>
        sql(`INSERT INTO "RunTimeSeries" (id, "runId", "metricId", "startedAt", "offsetsMs", "values") VALUES ($1, $2, $3, now(), $4, $5)`, [
          `${run}-${metric}`,
          run,
          metric,
          values.map((_, i) => i * 1000),
          values,
        ]);
      // The run detail of the issue: throughput n = 4, mean 450.3, sd 607.5, min 394, max 1,656 —
      // the mean the whole run's rate, the rest per-second rates (the last one a partial second, scaled).
      await result("go-throughput", "go", "throughput", { n: 4, mean: 450.3, sd: 607.5, min: 394, max: 1656 });
      await series("go", "throughput", [394, 410, 401, 1656]);
      // latency_p50: n counted requests, the mean was the run's median, sd/min/max per second.
      await result("go-p50", "go", "latency_p50", { n: 60000, mean: 0.706, sd: 160, min: 0.591, max: 480 });
      await series("go", "latency_p50", [0.61, 0.72, 0.591, 480]);
      await result("go-errors", "go", "errors", { n: 1, mean: 3, sum: 3 });
      await series("go", "errors", [0, 2, 1, 0]);
      // A redefined row without a series: keeps its value, and is flagged.
      await result("go-bytes", "go", "bytes_in", { n: 4, mean: 5000, sd: 90000, min: 4000, max: 9000 });
      // A k6 counter: the rate as mean, the request count as sum — flagged, its figures untouched.
      await result("k6-reqs", "k6", "http_reqs", { n: 1, mean: 1234.5, sum: 37035 });
      await result("ng-tps", "ng", "tps", { n: 3, mean: 20, min: 10, max: 30, sum: 120 });
      await series("ng", "tps", [10, 20, 30]);
      // An ordinary upload, sound: left as it was.
      await result("up-latency", "up", "latency", { n: 3, mean: 2, sd: 1, min: 1, max: 3, p50: 2, sum: 6 });

      expect((await migrate(database.url)).applied[0]).toBe(MIGRATION);

      const rows = new Map(
        ((await sql(`SELECT id, n::text AS n, mean, sd, min, max, p50, sum, value, "summaryNote" FROM "RunMetricResult"`)).rows as Row[]).map((row) => [
          row.id,
          row,
        ]),
      );
      const row = (id: string) => rows.get(id) as Row;

      // The redefined rows keep the number every comparison used, and their summaries now describe the series.
      expect(row("go-throughput")).toMatchObject({ value: 450.3, n: "4", mean: 715.25, min: 394, max: 1656, sum: 2861, summaryNote: null });
      expect(row("go-throughput").sd).toBeCloseTo(627.2009, 3);
      expect(row("go-p50")).toMatchObject({ value: 0.706, n: "4", min: 0.591, max: 480, summaryNote: null });
      expect(row("go-p50").mean).toBeCloseTo(120.48, 2);
      expect(row("go-errors")).toMatchObject({ value: 3, n: "4", mean: 0.75, min: 0, max: 2, sum: 3, summaryNote: null });
      expect(row("ng-tps")).toMatchObject({ value: 20, n: "3", mean: 20, min: 10, max: 30, sum: 60, summaryNote: null });
      for (const id of ["go-throughput", "go-p50", "go-errors", "ng-tps"]) {
        const r = row(id);
        expect(summaryContradictions({ ...r, n: Number(r.n) }), id).toEqual([]);
      }

      // What still contradicts itself is flagged, saying which rule and what comparisons use.
      expect(row("go-bytes")).toMatchObject({ value: 5000, mean: 5000, sd: 90000 });
      expect(row("go-bytes").summaryNote).toMatch(/no 4 values from min to max have this mean/);
      expect(row("go-bytes").summaryNote).toMatch(/Comparisons use the run's value/);
      expect(row("k6-reqs")).toMatchObject({ value: null, mean: 1234.5, sum: 37035 });
      expect(row("k6-reqs").summaryNote).toMatch(/sum is not mean × n/);

      // A sound row is left exactly as it was.
      expect(row("up-latency")).toEqual({ id: "up-latency", n: "3", mean: 2, sd: 1, min: 1, max: 3, p50: 2, sum: 6, value: null, summaryNote: null });
    });
  });
});
