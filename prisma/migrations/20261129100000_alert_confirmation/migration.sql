-- Confirmation before alarm: a rule may first run a confirmation batch (confirmRuns) and alert
-- only when it agrees; an alert keeps the batch that flagged it and the confirmation batch, and
-- what a user found it to be (real or noise).

-- AlterEnum
ALTER TYPE "AlertStatus" ADD VALUE 'confirming';
ALTER TYPE "AlertStatus" ADD VALUE 'unconfirmed';

-- CreateEnum
CREATE TYPE "AlertJudgement" AS ENUM ('real', 'noise');

-- AlterTable
ALTER TABLE "AlertRule" ADD COLUMN     "confirmRuns" INTEGER;

-- AlterTable
ALTER TABLE "Alert" ADD COLUMN     "batchId" TEXT,
ADD COLUMN     "confirmBatchId" TEXT,
ADD COLUMN     "confirmation" TEXT,
ADD COLUMN     "judgement" "AlertJudgement",
ADD COLUMN     "judgedById" TEXT,
ADD COLUMN     "judgedAt" TIMESTAMP(3);

-- AddForeignKey
ALTER TABLE "Alert" ADD CONSTRAINT "Alert_judgedById_fkey" FOREIGN KEY ("judgedById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Alert" ADD CONSTRAINT "Alert_batchId_fkey" FOREIGN KEY ("batchId") REFERENCES "JobBatch"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Alert" ADD CONSTRAINT "Alert_confirmBatchId_fkey" FOREIGN KEY ("confirmBatchId") REFERENCES "JobBatch"("id") ON DELETE SET NULL ON UPDATE CASCADE;
