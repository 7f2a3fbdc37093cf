-- The highest repetition stored for a variant, for the statement that numbers runs
-- (server/runs/run-numbering.ts): the floor its counter never goes below, in case a run was
-- written without the counter.
--
-- Read in a function of its own because a VOLATILE function takes a new snapshot for each query
-- it runs. The numbering statement waits for the variant's counter (a row lock) while other
-- writers of the variant commit; read with the statement's own snapshot, taken before that wait,
-- the runs they committed are invisible to it, so a run committed meanwhile by a writer that
-- skipped the counter was numbered again (a unique violation; highest-repetition.int.test.ts).
-- With a snapshot taken after the wait, every committed run counts. Index look-ups only,
-- whatever the table's size when a connection first plans it (see
-- 20261201090000_runs_version_by_key).
CREATE FUNCTION "versus_highest_repetition"(variant_id TEXT) RETURNS BIGINT
  LANGUAGE plpgsql VOLATILE
  SET enable_seqscan = off
AS $$
BEGIN
  RETURN (SELECT MAX("repetition")::BIGINT FROM "Run" WHERE "variantId" = variant_id);
END;
$$;
