-- Variant.runsVersion's triggers look their rows up by key, whatever the tables' sizes were when a
-- connection first ran them. PL/pgSQL keeps a statement's plan for the life of the connection, and
-- a plan made while "Run" was small (a new server, the first uploads) joined the changed results
-- to it by reading the whole table: every later upload on that pooled connection read every run
-- stored, until the table's next ANALYZE (bench/load.ts: one scan of "Run" per upload, 3.2 million
-- rows read in 10 s). Without sequential scans and hash joins the only plans left are the index
-- lookups: a run by its id, a variant by its id — a few rows read per upload at any size.
ALTER FUNCTION "versus_touch_runs_version"() SET enable_seqscan = off;
ALTER FUNCTION "versus_touch_runs_version"() SET enable_hashjoin = off;
ALTER FUNCTION "versus_touch_runs_version_of_results"() SET enable_seqscan = off;
ALTER FUNCTION "versus_touch_runs_version_of_results"() SET enable_hashjoin = off;
