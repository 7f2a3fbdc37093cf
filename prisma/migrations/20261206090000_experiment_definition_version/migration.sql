-- Experiment.definitionVersion: advanced whenever what an upload names changes — a variant or
-- metric added or deleted, a variant renamed, a metric's key, unit or direction changed. A process
-- keeps each experiment's variants and metrics as an upload last read them
-- (server/runs/upload-experiment-cache.ts), and the statement that stores an upload's runs under
-- that copy checks this on the experiment's row it locks FOR SHARE: a copy older than the row
-- writes nothing, and the upload reads the experiment again. The counters' updates
-- ("nextRepetition", "runsVersion") name none of these columns, so the triggers stay out of the
-- way of every upload.
ALTER TABLE "Experiment" ADD COLUMN "definitionVersion" INTEGER NOT NULL DEFAULT 0;

CREATE FUNCTION "versus_touch_definition_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    UPDATE "Experiment" SET "definitionVersion" = "definitionVersion" + 1 WHERE "id" = OLD."experimentId";
  END IF;
  -- A row moved to another experiment (nothing does that, but it could be done) changes both.
  IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW."experimentId" <> OLD."experimentId") THEN
    UPDATE "Experiment" SET "definitionVersion" = "definitionVersion" + 1 WHERE "id" = NEW."experimentId";
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "Variant_changed_definition_version" AFTER INSERT OR DELETE OR UPDATE OF "name", "experimentId" ON "Variant"
  FOR EACH ROW EXECUTE FUNCTION "versus_touch_definition_version"();
CREATE TRIGGER "Metric_changed_definition_version" AFTER INSERT OR DELETE OR UPDATE OF "key", "unit", "direction", "experimentId" ON "Metric"
  FOR EACH ROW EXECUTE FUNCTION "versus_touch_definition_version"();
