-- A run's metric gets an explicit value: what the run contributes to comparisons when that is
-- none of its summary's figures (the whole run's rate while the summary describes per-second
-- rates). From now on ingest refuses a summary whose figures cannot describe one set of values
-- (server/schemas/summary-rules.ts); rows stored before are migrated or flagged here, never
-- silently reinterpreted:
--
-- 1. Rows of producers whose summaries redefined their fields — the Go agent's http workload (the
--    mean was the whole run's rate or percentile, while n counted requests or seconds and
--    sd/min/max described per-second values), nGrinder imports' tps (its sum was the test count)
--    and the HTTP-vs-gRPC example's throughput (its sum was the request count) — keep their old mean as
--    their value, so every comparison keeps the number it showed, and their summary is recomputed
--    from the run's stored per-second series where there is one.
-- 2. Any row whose summary still contradicts itself is flagged in "summaryNote"; the page shows the
--    note instead of presenting the figures as sound.

-- AlterTable
ALTER TABLE "RunMetricResult" ADD COLUMN     "summaryNote" TEXT,
ADD COLUMN     "value" DOUBLE PRECISION;

-- 1a. The redefined rows keep their old mean as their value.
UPDATE "RunMetricResult" res
SET "value" = res."mean"
FROM "Run" r, "Metric" m
WHERE r."id" = res."runId" AND m."id" = res."metricId"
  AND (
    -- The Go agent's http workload records its facts (with the response count) under "http".
    (jsonb_typeof(r."environment" -> 'http') = 'object' AND (r."environment" -> 'http') ? 'responses'
      AND m."key" IN ('throughput', 'latency_p50', 'latency_p99', 'bytes_in', 'bytes_out', 'errors'))
    -- nGrinder imports (split=metric prefixes a benchmark's name to the key).
    OR (r."sourceDetail" = 'ngrinder' AND (m."key" = 'tps' OR m."key" LIKE '%:tps'))
    OR (r."source" = 'example' AND m."key" = 'throughput_rps')
  );

-- 1b. Their summary is that of the run's per-second series, where it has one. None of them had
--     percentiles or a histogram: the series' points are the values the summary now describes.
UPDATE "RunMetricResult" res
SET "n" = s."n", "mean" = s."mean", "sd" = s."sd", "min" = s."min", "max" = s."max", "sum" = s."sum",
  "p50" = NULL, "p90" = NULL, "p95" = NULL, "p99" = NULL, "p999" = NULL
FROM (
  SELECT t."runId", t."metricId", COUNT(*) AS "n", AVG(v) AS "mean", STDDEV_SAMP(v) AS "sd", MIN(v) AS "min", MAX(v) AS "max", SUM(v) AS "sum"
  FROM "RunTimeSeries" t, unnest(t."values") AS v
  GROUP BY t."runId", t."metricId"
) s
WHERE res."value" IS NOT NULL AND res."runId" = s."runId" AND res."metricId" = s."metricId" AND res."histogram" IS NULL;

-- 2. Flag every row that still contradicts itself, by the rules ingest applies
--    (server/schemas/summary-rules.ts, as they read when this migration was written): the first
--    rule a row breaks is named. Rows with a figure that is not finite are left to the note the
--    page already shows for them.
UPDATE "RunMetricResult" res
SET "summaryNote" = 'Stored before Versus checked that a summary describes its values: ' || c."problem"
  || CASE WHEN res."value" IS NOT NULL THEN '. Comparisons use the run''s value, the figure they used before.' ELSE '. Comparisons use the figures as stored.' END
FROM (
  SELECT f."id",
    CASE
      WHEN f."n" < 1 THEN 'n is below 1'
      WHEN f."sd" < 0 THEN 'sd is negative'
      WHEN f."min" > f."max" + f."float" THEN 'min is above max'
      WHEN f."mean" < f."min" - f."float" OR f."mean" > f."max" + f."float" THEN 'the mean lies outside [min, max]'
      WHEN EXISTS (SELECT 1 FROM unnest(ARRAY[f."p50", f."p90", f."p95", f."p99", f."p999"]) AS p WHERE p < f."min" - f."float" OR p > f."max" + f."float")
        THEN 'a percentile lies outside [min, max]'
      WHEN f."p90" < f."p50" - f."float" OR f."p95" < COALESCE(f."p90", f."p50") - f."float"
        OR f."p99" < COALESCE(f."p95", f."p90", f."p50") - f."float" OR f."p999" < COALESCE(f."p99", f."p95", f."p90", f."p50") - f."float"
        THEN 'the percentiles are out of order'
      WHEN f."n" = 1 AND (f."sd" > f."float" OR EXISTS (
          SELECT 1 FROM unnest(ARRAY[f."min", f."max", f."p50", f."p90", f."p95", f."p99", f."p999"]) AS x WHERE abs(x - f."mean") > f."float"))
        THEN 'n = 1, but its figures have a spread'
      WHEN f."n" > 1 AND f."min" IS NOT NULL AND f."max" IS NOT NULL
        AND (f."mean" < ((f."n" - 1) * f."min" + f."max") / f."n" - f."printed" OR f."mean" > (f."min" + (f."n" - 1) * f."max") / f."n" + f."printed")
        THEN 'no ' || f."n" || ' values from min to max have this mean'
      WHEN f."n" > 1 AND f."min" IS NOT NULL AND f."max" IS NOT NULL AND f."sd" IS NOT NULL
        AND (f."sd" > sqrt(f."n" / (f."n" - 1)) * sqrt(greatest(0, f."max" - f."mean")) * sqrt(greatest(0, f."mean" - f."min")) + f."printed"
          OR f."sd" < (f."max" - f."min") / sqrt(2 * f."n") - f."printed")
        THEN 'no ' || f."n" || ' values from min to max with this mean have this sd'
      WHEN abs(f."sum" - f."mean" * f."n") > 1e-6 * greatest(abs(f."sum"), f."n" * f."scale") + 1e-300 THEN 'its sum is not mean × n'
    END AS "problem"
  FROM (
    SELECT x.*, 1e-9 * x."scale" + 1e-300 AS "float", 1e-3 * x."scale" + 1e-300 AS "printed"
    FROM (
      SELECT "id", "n"::float8 AS "n", "mean", "sd", "min", "max", "p50", "p90", "p95", "p99", "p999", "sum",
        greatest(abs("mean"), abs(COALESCE("min", 0)), abs(COALESCE("max", 0))) AS "scale"
      FROM "RunMetricResult"
      WHERE NOT EXISTS (
        SELECT 1 FROM unnest(ARRAY["mean", "sd", "min", "max", "p50", "p90", "p95", "p99", "p999", "sum"]) AS figure
        WHERE figure IN ('Infinity'::float8, '-Infinity'::float8, 'NaN'::float8)
      )
    ) x
  ) f
) c
WHERE res."id" = c."id" AND c."problem" IS NOT NULL;
