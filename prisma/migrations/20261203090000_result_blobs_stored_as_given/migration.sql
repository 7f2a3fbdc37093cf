-- A result's samples and histogram are deflated by Versus before they are stored
-- (server/runs/sample-codec.ts, server/runs/histogram.ts), so PostgreSQL's own compression of a
-- large value (pglz, tried on every value that makes a row pass 2 kB) never shrinks them, but it
-- can run over most of the value before it gives up: storing a million samples (2.9 MB) took
-- 80 ms in the INSERT against 20 ms without it. EXTERNAL still moves large values out of line
-- (TOAST), only without trying to compress them. Rows written before keep how they were stored.
ALTER TABLE "RunMetricResult" ALTER COLUMN "samples" SET STORAGE EXTERNAL;
ALTER TABLE "RunMetricResult" ALTER COLUMN "histogram" SET STORAGE EXTERNAL;
