-- The highest repetition stored for a variant, for the statement that numbers runs
-- (server/runs/run-numbering.ts): the floor its counter never goes below, in case a run was
-- written without the counter.
--
-- Read in a function of its own because a VOLATILE function takes a new snapshot for each query
-- it runs. The numbering statement waits for the variant's counter (a row lock) while other
-- uploads to the variant commit their runs; read with the statement's own snapshot, taken before
-- that wait, the highest entries of the index on ("variantId", "repetition") are those runs,
-- invisible to it, and each costs a visit to the table before a visible one is found
-- (bench/load.ts: about 190 runs read per upload to a busy variant, a quarter of PostgreSQL's CPU
-- per upload). With a snapshot taken after the wait, the highest entry is visible: one run read.
-- Index look-ups only, whatever the table's size when a connection first plans it (see
-- 20261201090000_runs_version_by_key).
CREATE FUNCTION "versus_highest_repetition"(variant_id TEXT) RETURNS BIGINT
  LANGUAGE plpgsql VOLATILE
  SET enable_seqscan = off
AS $$
BEGIN
  RETURN (SELECT MAX("repetition")::BIGINT FROM "Run" WHERE "variantId" = variant_id);
END;
$$;
