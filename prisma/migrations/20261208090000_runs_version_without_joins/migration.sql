-- Variant.runsVersion's triggers find their variants with no join the planner could choose badly.
-- 20261201090000_runs_version_by_key forbade sequential scans and hash joins, so that a plan
-- PL/pgSQL cached while "Run" was small (it keeps a statement's plan for the connection's life)
-- could not read the whole table later. A merge join was still allowed and does just that: the
-- changed results sorted by run id, merged with "Run" read in its primary key's order from the
-- first entry. Under bench/load.ts (perf of PostgreSQL's processes, 10 s of a two-process load)
-- these triggers took 28.7 % of PostgreSQL's CPU, 23.9 % in that merge join (7.5 % once rewritten);
-- on a table of 100,000 runs such a plan read 92,995 pages (46 ms) where the lookups read 24.
-- Now each changed result finds its run by a subquery on its id (an index lookup, the only plan a
-- subquery on the key has with sequential scans off), and the variants are looked up by `= ANY`
-- of the distinct ids: no join left to plan. Sequential scans stay off for the case where the
-- planner believes a table nearly empty.
CREATE OR REPLACE FUNCTION "versus_touch_runs_version"() RETURNS trigger LANGUAGE plpgsql
  SET enable_seqscan = off
AS $$
BEGIN
  UPDATE "Variant" SET "runsVersion" = txid_current()
  WHERE "id" = ANY (ARRAY(SELECT DISTINCT "variantId" FROM changed_runs)) AND "runsVersion" <> txid_current();
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION "versus_touch_runs_version_of_results"() RETURNS trigger LANGUAGE plpgsql
  SET enable_seqscan = off
AS $$
BEGIN
  UPDATE "Variant" SET "runsVersion" = txid_current()
  WHERE "id" = ANY (ARRAY(SELECT DISTINCT (SELECT r."variantId" FROM "Run" r WHERE r."id" = c."runId") FROM changed_results c))
    AND "runsVersion" <> txid_current();
  RETURN NULL;
END $$;
