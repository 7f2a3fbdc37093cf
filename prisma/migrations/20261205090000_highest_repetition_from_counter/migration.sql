-- The highest repetition a variant has at or above a number: the statement that numbers runs
-- (server/runs/run-numbering.ts) asks from the variant's counter up, once it holds the counter.
-- Every writer that takes numbers from the counter stored its runs below it, so this finds a run
-- only where one was written without the counter, which is what the floor is for, and otherwise
-- ends in the index (two pages). Asked over the whole variant, it started from the newest runs'
-- index entries and visited their rows until one was visible: under bench/load.ts, 37 pages and
-- 0.24 ms a call, twice an upload, for the same answer.
DROP FUNCTION "versus_highest_repetition"(TEXT);

CREATE FUNCTION "versus_highest_repetition"(variant_id TEXT, at_least BIGINT) RETURNS BIGINT
  LANGUAGE plpgsql VOLATILE
  SET enable_seqscan = off
AS $$
BEGIN
  RETURN (SELECT MAX("repetition")::BIGINT FROM "Run" WHERE "variantId" = variant_id AND "repetition" >= at_least);
END;
$$;
