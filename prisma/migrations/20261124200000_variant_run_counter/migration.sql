-- Each variant counts its runs: the next repetition number is taken from the variant's own row
-- in the statement that stores a run, so runs of different variants (and an agent's complete of
-- one job against an upload to another variant) no longer wait for each other on the
-- experiment's lock. Existing variants continue after their highest stored repetition.
-- BIGINT: an upload may number a run 2147483647 (the largest repetition); the counter then
-- stands past it, and the next unnumbered run is refused with a message instead of overflowing.
ALTER TABLE "Variant" ADD COLUMN "nextRepetition" BIGINT NOT NULL DEFAULT 0;

UPDATE "Variant" SET "nextRepetition" = highest."top" + 1
FROM (SELECT "variantId", MAX("repetition")::bigint AS "top" FROM "Run" GROUP BY "variantId") AS highest
WHERE "Variant"."id" = highest."variantId";
