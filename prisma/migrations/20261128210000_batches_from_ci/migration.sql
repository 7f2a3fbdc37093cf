-- Batches started from CI (POST /api/v1/experiments/{slugOrId}/batches): an API key may be limited
-- to uploads (every key made before, and the default) or also allowed to start runs; a batch may
-- carry the commit it measures, stamped on every run its jobs store.

-- CreateEnum
CREATE TYPE "ApiKeyScope" AS ENUM ('upload', 'run');

-- AlterTable
ALTER TABLE "ApiKey" ADD COLUMN     "scope" "ApiKeyScope" NOT NULL DEFAULT 'upload';

-- AlterTable
ALTER TABLE "JobBatch" ADD COLUMN     "apiKeyId" TEXT,
ADD COLUMN     "gitBranch" TEXT,
ADD COLUMN     "gitCommit" TEXT,
ADD COLUMN     "gitCommitMessage" TEXT,
ADD COLUMN     "gitCommitTime" TIMESTAMP(3);

-- AddForeignKey
ALTER TABLE "JobBatch" ADD CONSTRAINT "JobBatch_apiKeyId_fkey" FOREIGN KEY ("apiKeyId") REFERENCES "ApiKey"("id") ON DELETE SET NULL ON UPDATE CASCADE;
