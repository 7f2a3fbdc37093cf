-- A run carries the warnings its producer noticed (a probe that missed intervals, a counter that
-- went down): at most 20, each at most 500 characters, checked at ingest. Runs stored before have none.

-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "warnings" TEXT[] DEFAULT ARRAY[]::TEXT[];
