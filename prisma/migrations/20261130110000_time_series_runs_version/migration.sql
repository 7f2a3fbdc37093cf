-- A run's time series join its results in what Variant.runsVersion follows: the experiment page's
-- charts are cached per process under a key that holds each variant's runsVersion
-- (server/comparison/comparison-cache.ts), and they draw the series. Series are written with their
-- run today, but a series changed or deleted on its own must change the key too.
CREATE TRIGGER "RunTimeSeries_inserted_touch_runs_version" AFTER INSERT ON "RunTimeSeries"
  REFERENCING NEW TABLE AS changed_results FOR EACH STATEMENT EXECUTE FUNCTION "versus_touch_runs_version_of_results"();
CREATE TRIGGER "RunTimeSeries_updated_touch_runs_version" AFTER UPDATE ON "RunTimeSeries"
  REFERENCING NEW TABLE AS changed_results FOR EACH STATEMENT EXECUTE FUNCTION "versus_touch_runs_version_of_results"();
CREATE TRIGGER "RunTimeSeries_deleted_touch_runs_version" AFTER DELETE ON "RunTimeSeries"
  REFERENCING OLD TABLE AS changed_results FOR EACH STATEMENT EXECUTE FUNCTION "versus_touch_runs_version_of_results"();
