-- An A/A batch ("measure noise"): the baseline variant run against itself, interleaved, to
-- measure each agent's run-to-run spread and the smallest change a comparison can detect there.

-- AlterTable
ALTER TABLE "JobBatch" ADD COLUMN     "noise" BOOLEAN NOT NULL DEFAULT false;
