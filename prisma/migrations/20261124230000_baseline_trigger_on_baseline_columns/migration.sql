-- The "at least one baseline" check ran at the commit of every transaction that updated a
-- variant, including each run's repetition counter ("nextRepetition"), i.e. on every upload and
-- every completed job. Only inserting, deleting, or changing which experiment a variant belongs
-- to or whether it is the baseline can leave an experiment without one.
DROP TRIGGER "Variant_exactly_one_baseline" ON "Variant";
CREATE CONSTRAINT TRIGGER "Variant_exactly_one_baseline" AFTER INSERT OR DELETE OR UPDATE OF "isBaseline", "experimentId" ON "Variant"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "versus_require_baseline"();
