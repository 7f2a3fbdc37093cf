-- Each history's per-commit points (median, CI, run values, commit time and message) per metric ×
-- variant × branch, stored by the change-point refresh so that a history read is one row
-- (server/history/stored-series.ts), and the version that tells stored points from stale ones: the
-- last transaction that changed a variant's runs.

-- AlterTable
ALTER TABLE "Variant" ADD COLUMN     "runsVersion" BIGINT NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "HistorySeries" (
    "metricId" TEXT NOT NULL,
    "variantId" TEXT NOT NULL,
    "branch" TEXT NOT NULL,
    "runsVersion" BIGINT NOT NULL,
    "aggregation" "MetricAggregation" NOT NULL,
    "commitCount" INTEGER NOT NULL,
    "labels" JSON NOT NULL,
    "times" BYTEA NOT NULL,
    "medians" BYTEA NOT NULL,
    "ciLows" BYTEA NOT NULL,
    "ciHighs" BYTEA NOT NULL,
    "runCounts" BYTEA NOT NULL,
    "runValues" BYTEA NOT NULL,
    "branches" JSON NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "HistorySeries_pkey" PRIMARY KEY ("metricId","variantId","branch")
);

-- Run values uncompressed and out of line (they do not compress anyway): a history page reads
-- only the shown commits' slices of them (substring), which then reads just those pages.
ALTER TABLE "HistorySeries" ALTER COLUMN "runValues" SET STORAGE EXTERNAL;

-- CreateIndex
CREATE INDEX "HistorySeries_variantId_idx" ON "HistorySeries"("variantId");

-- AddForeignKey
ALTER TABLE "HistorySeries" ADD CONSTRAINT "HistorySeries_metricId_fkey" FOREIGN KEY ("metricId") REFERENCES "Metric"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "HistorySeries" ADD CONSTRAINT "HistorySeries_variantId_fkey" FOREIGN KEY ("variantId") REFERENCES "Variant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The id of the last transaction that inserted, changed or deleted a variant's runs or their
-- results becomes the variant's runsVersion. Statement-level (one UPDATE per statement, not per
-- row), and only when the version is not already this transaction's: an upload of many runs
-- writes the variant row once. Both writers of runs hold the variant's row already (its
-- repetition counter), so this takes no new lock. A run's variant never changes, so the new rows
-- name every variant an UPDATE touched.
CREATE FUNCTION "versus_touch_runs_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "Variant" SET "runsVersion" = txid_current()
  WHERE "id" IN (SELECT DISTINCT "variantId" FROM changed_runs) AND "runsVersion" <> txid_current();
  RETURN NULL;
END $$;

CREATE FUNCTION "versus_touch_runs_version_of_results"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "Variant" SET "runsVersion" = txid_current()
  WHERE "id" IN (SELECT DISTINCT r."variantId" FROM changed_results c JOIN "Run" r ON r."id" = c."runId") AND "runsVersion" <> txid_current();
  RETURN NULL;
END $$;

CREATE TRIGGER "Run_inserted_touch_runs_version" AFTER INSERT ON "Run"
  REFERENCING NEW TABLE AS changed_runs FOR EACH STATEMENT EXECUTE FUNCTION "versus_touch_runs_version"();
CREATE TRIGGER "Run_updated_touch_runs_version" AFTER UPDATE ON "Run"
  REFERENCING NEW TABLE AS changed_runs FOR EACH STATEMENT EXECUTE FUNCTION "versus_touch_runs_version"();
CREATE TRIGGER "Run_deleted_touch_runs_version" AFTER DELETE ON "Run"
  REFERENCING OLD TABLE AS changed_runs FOR EACH STATEMENT EXECUTE FUNCTION "versus_touch_runs_version"();
CREATE TRIGGER "RunMetricResult_inserted_touch_runs_version" AFTER INSERT ON "RunMetricResult"
  REFERENCING NEW TABLE AS changed_results FOR EACH STATEMENT EXECUTE FUNCTION "versus_touch_runs_version_of_results"();
CREATE TRIGGER "RunMetricResult_updated_touch_runs_version" AFTER UPDATE ON "RunMetricResult"
  REFERENCING NEW TABLE AS changed_results FOR EACH STATEMENT EXECUTE FUNCTION "versus_touch_runs_version_of_results"();
CREATE TRIGGER "RunMetricResult_deleted_touch_runs_version" AFTER DELETE ON "RunMetricResult"
  REFERENCING OLD TABLE AS changed_results FOR EACH STATEMENT EXECUTE FUNCTION "versus_touch_runs_version_of_results"();
