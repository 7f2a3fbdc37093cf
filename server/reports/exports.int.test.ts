// The CSV exports end to end on a real, migrated PostgreSQL: runs uploaded through the ingest
// service come back out of runs.csv (parsed with csv-parse) as exactly the stored numbers, and
// summary.csv holds exactly the comparison's figures. Also through the download route handlers.
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { GET as getRunsCsv } from "~/app/p/[project]/e/[experiment]/export/runs.csv/route";
import { GET as getSummaryCsv } from "~/app/p/[project]/e/[experiment]/export/summary.csv/route";
import { createPrismaClient } from "~/server/db/client";
import { signedInUser } from "~/test/signed-in";
import { createKafkaProject, KAFKA_SLUG, KAFKA_VARIANTS, MESSAGES, SEND_TIME_MS, upload } from "~/test/fixtures/kafka-serializers";
import { getComparison } from "../comparison/comparison";
import { exportRunsCsv, exportSummaryCsv } from "./exports";

const db = createPrismaClient(inject("databaseUrl"));
const owner = await signedInUser(db, "exports");

afterAll(() => db.$disconnect());

type Row = Record<string, string>;
const parseCsv = (text: string): Row[] => parse(text, { columns: true, skip_empty_lines: true });
/** An empty cell is an unknown figure. */
const num = (cell: string | undefined) => (cell === undefined || cell === "" ? null : Number(cell));

describe("CSV exports — Kafka serializers (docs/examples.md case 5)", () => {
  let project: { projectId: string; projectSlug: string };

  beforeAll(async () => {
    project = await createKafkaProject(db, owner.id);
    // A failed run: exported, never compared.
    await upload(
      db,
      { id: project.projectId, slug: project.projectSlug },
      {
        experiment: KAFKA_SLUG,
        runs: [
          {
            variant: "SPRING_JSON",
            status: "failed",
            repetition: 6,
            sourceDetail: 'broker "down", restarted',
            warnings: ['probe "app-1" did not answer for 3 of 10 intervals (4 s – 7 s): connection refused', "second, with a comma"],
            metrics: [{ key: "send_time_ms", summary: { n: 1, mean: 40 } }],
          },
        ],
      },
    );
  });

  it("runs.csv: one row per run and metric with the stored numbers, read back exactly", async () => {
    const file = await exportRunsCsv(db, { projectSlug: project.projectSlug }, KAFKA_SLUG);
    expect(file.fileName).toBe("kafka-serializers-runs.csv");
    expect(file.contentType).toBe("text/csv; charset=utf-8");
    const rows = parseCsv(file.text);
    expect(Object.keys(rows[0]!)).toEqual([
      "variant",
      "repetition",
      "run_id",
      "status",
      "source",
      "source_detail",
      "started_at",
      "finished_at",
      "git_commit",
      "git_branch",
      "metric",
      "unit",
      "n",
      "mean",
      "sd",
      "min",
      "max",
      "p50",
      "p90",
      "p95",
      "p99",
      "p99_9",
      "sum",
      "value",
      "compared_value",
      "summary_note",
      "warnings",
    ]);
    // 15 runs × 2 metrics and the failed run's one metric.
    expect(rows).toHaveLength(31);

    const stored = await db.runMetricResult.findMany({
      where: { run: { experiment: { projectId: project.projectId, slug: KAFKA_SLUG } } },
      include: { metric: { select: { key: true, unit: true } }, run: { include: { variant: { select: { name: true } } } } },
    });
    expect(stored).toHaveLength(rows.length);
    for (const result of stored) {
      const row = rows.find((r) => r.run_id === result.runId && r.metric === result.metric.key);
      expect(row, `${result.runId} ${result.metric.key}`).toBeDefined();
      expect(row!.variant).toBe(result.run.variant.name);
      expect(row!.status).toBe(result.run.status);
      expect(row!.unit).toBe(result.metric.unit);
      expect(Number(row!.repetition)).toBe(result.run.repetition);
      expect(row!.n).toBe(result.n.toString());
      expect(num(row!.mean)).toBe(result.mean);
      for (const [column, value] of Object.entries({
        sd: result.sd,
        min: result.min,
        max: result.max,
        p50: result.p50,
        p90: result.p90,
        p95: result.p95,
        p99: result.p99,
        p99_9: result.p999,
        sum: result.sum,
        value: result.value,
      })) {
        expect(num(row![column]), `${column} of ${result.runId}`).toBe(value);
      }
      expect(row!.started_at).toBe(result.run.startedAt?.toISOString() ?? "");
    }

    // The published per-run send times, in upload order.
    const kotlinx = rows.filter((r) => r.variant === "KOTLINX_JSON" && r.metric === "send_time_ms");
    expect(kotlinx.map((r) => num(r.mean))).toEqual([...SEND_TIME_MS.KOTLINX_JSON]);
    expect(kotlinx[0]).toMatchObject({ repetition: "0", git_commit: "4f2a9c1e", git_branch: "main", n: String(MESSAGES), sd: "", p99_9: "" });
    // Quotes and commas in free text survive the round trip.
    expect(rows.find((r) => r.status === "failed")).toMatchObject({ variant: "SPRING_JSON", source_detail: 'broker "down", restarted', mean: "40" });
    // A run's warnings, one a line in its cell; a run without any has an empty cell.
    expect(rows.find((r) => r.status === "failed")?.warnings).toBe(
      'probe "app-1" did not answer for 3 of 10 intervals (4 s – 7 s): connection refused\nsecond, with a comma',
    );
    expect(kotlinx[0]?.warnings).toBe("");
  });

  it("runs.csv: a run with raw samples has every summary column, computed at ingest", async () => {
    const slug = "sampled-run";
    const samples = [2.5, 2.75, 3.1, 2.9, 4.25, 2.81];
    await upload(
      db,
      { id: project.projectId, slug: project.projectSlug },
      {
        experiment: slug,
        create: true,
        runs: [{ variant: "A", gitCommit: "b7e1d2", metrics: [{ key: "send_time_ms", unit: "ms", direction: "lower_is_better", samples }] }],
      },
    );
    const [row, ...rest] = parseCsv((await exportRunsCsv(db, { projectSlug: project.projectSlug }, slug)).text);
    expect(rest).toHaveLength(0);
    const stored = await db.runMetricResult.findFirstOrThrow({ where: { run: { id: row!.run_id } } });
    expect(row).toMatchObject({ variant: "A", git_commit: "b7e1d2", n: "6", min: "2.5", max: "4.25" });
    expect(num(row!.mean)).toBeCloseTo(samples.reduce((a, b) => a + b, 0) / 6, 12);
    expect([num(row!.mean), num(row!.sd), num(row!.p50), num(row!.p90), num(row!.p99_9)]).toEqual([
      stored.mean,
      stored.sd,
      stored.p50,
      stored.p90,
      stored.p999,
    ]);
    expect(num(row!.p99_9)).toBe(4.25);
  });

  it("summary.csv: one row per metric and variant with the comparison's figures", async () => {
    const file = await exportSummaryCsv(db, { projectSlug: project.projectSlug }, KAFKA_SLUG);
    expect(file.fileName).toBe("kafka-serializers-summary.csv");
    const rows = parseCsv(file.text);
    const comparison = await getComparison(db, { projectSlug: project.projectSlug }, KAFKA_SLUG);
    expect(rows.map((r) => `${r.metric}/${r.variant}`)).toEqual(["send_time_ms", "message_size_bytes"].flatMap((m) => KAFKA_VARIANTS.map((v) => `${m}/${v}`)));
    for (const metric of comparison.metrics) {
      for (const stats of metric.comparison!.variants) {
        const row = rows.find((r) => r.metric === metric.key && r.variant === stats.variant)!;
        expect(row).toMatchObject({
          unit: metric.unit,
          direction: metric.direction,
          aggregation: "mean",
          baseline: "SPRING_JSON",
          is_baseline: String(stats.isBaseline),
        });
        expect(Number(row.runs)).toBe(stats.n);
        expect([num(row.median), num(row.median_ci_low), num(row.median_ci_high), num(row.mean), num(row.sd), num(row.min), num(row.max)]).toEqual([
          stats.median,
          stats.medianCi!.low,
          stats.medianCi!.high,
          stats.mean,
          stats.sd,
          stats.min,
          stats.max,
        ]);
        // Summaries only: no histograms, so no merged percentiles.
        expect([row.merged_count, row.merged_p50, row.merged_p99]).toEqual(["", "", ""]);
        const candidate = metric.comparison!.comparisons.find((c) => c.candidate === stats.variant);
        if (!candidate) {
          expect([row.change_percent, row.p, row.verdict]).toEqual(["", "", ""]);
          continue;
        }
        expect([num(row.change_percent), num(row.change_ci_low_percent), num(row.change_ci_high_percent), num(row.p)]).toEqual([
          candidate.change.percent,
          candidate.change.percentCi!.low,
          candidate.change.percentCi!.high,
          candidate.pAdjusted,
        ]);
        expect(row).toMatchObject({ verdict: candidate.verdict, evidence: candidate.evidence, p_adjustment: "holm", reason: candidate.reason });
      }
    }
    const kotlinx = rows.find((r) => r.metric === "send_time_ms" && r.variant === "KOTLINX_JSON")!;
    expect(kotlinx.verdict).toBe("better");
    expect(Number(kotlinx.p)).toBeCloseTo(0.032, 3);
  });

  it("summary.csv follows ?baseline= and, with one variant, gives its own figures and says why nothing is compared", async () => {
    const otherSlug = "one-metric-unused";
    const samples = [2.5, 2.75, 3.1, 2.9, 4.25, 2.81];
    await upload(
      db,
      { id: project.projectId, slug: project.projectSlug },
      {
        experiment: otherSlug,
        create: true,
        runs: [
          { variant: "A", metrics: [{ key: "t", unit: "ms", direction: "lower_is_better", summary: { n: 1, mean: 1 } }] },
          {
            variant: "A",
            metrics: [
              { key: "t", summary: { n: 1, mean: 3 } },
              { key: "latency", unit: "ms", direction: "lower_is_better", samples },
            ],
          },
        ],
      },
    );
    const rows = parseCsv((await exportSummaryCsv(db, { projectSlug: project.projectSlug }, otherSlug)).text);
    expect(rows).toEqual([
      expect.objectContaining({
        metric: "t",
        variant: "A",
        is_baseline: "true",
        runs: "2",
        median: "2",
        mean: "2",
        min: "1",
        max: "3",
        change_percent: "",
        verdict: "",
        reason: "no other variant has runs with this metric",
      }),
      expect.objectContaining({ metric: "latency", variant: "A", runs: "1", merged_count: "6", reason: "no other variant has runs with this metric" }),
    ]);
    expect(num(rows[1]!.merged_max)).toBeCloseTo(4.25, 2);
    expect(num(rows[0]!.sd)).toBeCloseTo(Math.SQRT2, 12);

    const flipped = parseCsv((await exportSummaryCsv(db, { projectSlug: project.projectSlug }, KAFKA_SLUG, "KOTLINX_JSON")).text);
    expect(flipped.find((r) => r.metric === "send_time_ms" && r.variant === "SPRING_JSON")).toMatchObject({ baseline: "KOTLINX_JSON", verdict: "worse" });
  });

  it("summary.csv: no p beside insufficient_data, and the change columns name their unit", async () => {
    const slug = "three-against-three";
    await upload(
      db,
      { id: project.projectId, slug: project.projectSlug },
      {
        experiment: slug,
        create: true,
        runs: [1, 2, 3].flatMap((i) => [
          { variant: "A", metrics: [{ key: "t", unit: "ms", direction: "lower_is_better", summary: { n: 1, mean: i } }] },
          { variant: "B", metrics: [{ key: "t", summary: { n: 1, mean: i + 3 } }] },
        ]),
      },
    );
    const file = await exportSummaryCsv(db, { projectSlug: project.projectSlug }, slug);
    expect(file.text.split("\n")[0]).toContain(",change_percent,change_ci_low_percent,change_ci_high_percent,change_ci_confidence,p,");
    const b = parseCsv(file.text).find((r) => r.variant === "B")!;
    // 3 runs against 3 cannot reach α: the verdict rests on no p (it wrote 0.1).
    expect(b).toMatchObject({ verdict: "insufficient_data", p: "" });
    expect(num(b.change_percent)).toBe(150);
  });

  it("the download routes answer with attachments, and 404 / 422 with the reason", async () => {
    const params = (experiment: string) => ({ params: Promise.resolve({ project: project.projectSlug, experiment }) });
    const base = `http://test.local/p/${project.projectSlug}/e/${KAFKA_SLUG}/export`;
    const runs = await getRunsCsv(new Request(`${base}/runs.csv`, { headers: owner.headers() }), params(KAFKA_SLUG));
    expect(runs.status).toBe(200);
    expect(runs.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(runs.headers.get("content-disposition")).toBe('attachment; filename="kafka-serializers-runs.csv"');
    expect(parseCsv(await runs.text())).toHaveLength(31);

    const summary = await getSummaryCsv(new Request(`${base}/summary.csv?baseline=KOTLINX_JSON`, { headers: owner.headers() }), params(KAFKA_SLUG));
    expect(summary.headers.get("content-disposition")).toBe('attachment; filename="kafka-serializers-summary.csv"');
    expect(parseCsv(await summary.text())[0]).toMatchObject({ baseline: "KOTLINX_JSON" });

    const missing = await getRunsCsv(new Request(`${base}/runs.csv`, { headers: owner.headers() }), params("nope"));
    expect(missing.status).toBe(404);
    const badBaseline = await getSummaryCsv(new Request(`${base}/summary.csv?baseline=GSON`, { headers: owner.headers() }), params(KAFKA_SLUG));
    expect(badBaseline.status).toBe(422);
    expect(await badBaseline.text()).toContain('No variant "GSON"');
  });
});
