-- Repetition numbers and positions were counted rather than allocated, so concurrent uploads
-- could store the same repetition twice for one variant, and concurrent creations the same
-- position twice in one experiment. Existing duplicates are renumbered first, then the
-- database refuses new ones.

-- Runs: the first run (by creation) keeps its repetition; each later run with the same number
-- moves past the variant's highest repetition, in creation order. Unique numbers stay as they are.
WITH ranked AS (
    SELECT "id", "variantId", "repetition", "createdAt",
           ROW_NUMBER() OVER (PARTITION BY "variantId", "repetition" ORDER BY "createdAt", "id") AS "copy"
    FROM "Run"
),
highest AS (
    SELECT "variantId", MAX("repetition") AS "top" FROM "Run" GROUP BY "variantId"
),
moved AS (
    SELECT ranked."id",
           highest."top" + ROW_NUMBER() OVER (PARTITION BY ranked."variantId" ORDER BY ranked."repetition", ranked."createdAt", ranked."id") AS "repetition"
    FROM ranked JOIN highest ON highest."variantId" = ranked."variantId"
    WHERE ranked."copy" > 1
)
UPDATE "Run" SET "repetition" = moved."repetition" FROM moved WHERE "Run"."id" = moved."id";

-- Variants and metrics: numbered 0, 1, 2, … per experiment in the order they were listed
-- (position, then creation), as the experiment edit form numbers them.
UPDATE "Variant" SET "position" = numbered."position"
FROM (
    SELECT "id", (ROW_NUMBER() OVER (PARTITION BY "experimentId" ORDER BY "position", "createdAt", "id") - 1)::integer AS "position"
    FROM "Variant"
) AS numbered
WHERE "Variant"."id" = numbered."id" AND "Variant"."position" <> numbered."position";

UPDATE "Metric" SET "position" = numbered."position"
FROM (
    SELECT "id", (ROW_NUMBER() OVER (PARTITION BY "experimentId" ORDER BY "position", "createdAt", "id") - 1)::integer AS "position"
    FROM "Metric"
) AS numbered
WHERE "Metric"."id" = numbered."id" AND "Metric"."position" <> numbered."position";

-- The baseline check the variant updates queued for commit runs now: an index cannot be built
-- on a table with pending trigger events.
SET CONSTRAINTS "Variant_exactly_one_baseline" IMMEDIATE;
SET CONSTRAINTS "Variant_exactly_one_baseline" DEFERRED;

-- CreateIndex
CREATE UNIQUE INDEX "Variant_experimentId_position_key" ON "Variant"("experimentId", "position");

-- CreateIndex
CREATE UNIQUE INDEX "Metric_experimentId_position_key" ON "Metric"("experimentId", "position");

-- CreateIndex
CREATE UNIQUE INDEX "Run_variantId_repetition_key" ON "Run"("variantId", "repetition");
