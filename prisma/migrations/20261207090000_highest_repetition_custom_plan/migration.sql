-- versus_highest_repetition plans its query for each call, with the call's values. PL/pgSQL keeps
-- a query's plan for the connection's life, and the one a new server's connections made while
-- "Run" was small (never analysed) read the variant's runs through its (variantId, gitBranch,
-- gitCommit) index and filtered the repetitions: every run of the variant, on every call, as the
-- variant grew. Under bench/load.ts (auto_explain, pg_stat_statements) that was 90-300 pages and
-- 0.3-1.0 ms a call, twice an upload, while the statement held the variants' counters. Planned
-- with the call's values it is the backward scan of (variantId, repetition): four pages. Planning
-- costs some tens of microseconds a call.
ALTER FUNCTION "versus_highest_repetition"(TEXT, BIGINT) SET plan_cache_mode = force_custom_plan;
