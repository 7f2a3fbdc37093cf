-- History and change points: a commit's message and time on runs, a project's repository URL (for
-- commit links), and the change points found in each metric's per-commit history.

-- CreateEnum
CREATE TYPE "ChangeVerdict" AS ENUM ('regression', 'improvement');

-- CreateEnum
CREATE TYPE "ChangePointStatus" AS ENUM ('open', 'acknowledged', 'dismissed');

-- AlterTable
ALTER TABLE "Project" ADD COLUMN     "repositoryUrl" TEXT;

-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "gitCommitMessage" TEXT,
ADD COLUMN     "gitCommitTime" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "ChangePoint" (
    "id" TEXT NOT NULL,
    "experimentId" TEXT NOT NULL,
    "metricId" TEXT NOT NULL,
    "variantId" TEXT NOT NULL,
    "branch" TEXT NOT NULL DEFAULT '',
    "commit" TEXT NOT NULL,
    "previousCommit" TEXT NOT NULL,
    "commitIndex" INTEGER NOT NULL,
    "before" DOUBLE PRECISION NOT NULL,
    "after" DOUBLE PRECISION NOT NULL,
    "changePercent" DOUBLE PRECISION,
    "ciLowPercent" DOUBLE PRECISION,
    "ciHighPercent" DOUBLE PRECISION,
    "verdict" "ChangeVerdict" NOT NULL,
    "pValue" DOUBLE PRECISION NOT NULL,
    "status" "ChangePointStatus" NOT NULL DEFAULT 'open',
    "reviewedById" TEXT,
    "reviewedAt" TIMESTAMP(3),
    "foundAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ChangePoint_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ChangePoint_experimentId_status_idx" ON "ChangePoint"("experimentId", "status");

-- CreateIndex
CREATE UNIQUE INDEX "ChangePoint_metricId_variantId_branch_commit_key" ON "ChangePoint"("metricId", "variantId", "branch", "commit");

-- CreateIndex
CREATE INDEX "Run_variantId_gitBranch_gitCommit_idx" ON "Run"("variantId", "gitBranch", "gitCommit");

-- AddForeignKey
ALTER TABLE "ChangePoint" ADD CONSTRAINT "ChangePoint_experimentId_fkey" FOREIGN KEY ("experimentId") REFERENCES "Experiment"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChangePoint" ADD CONSTRAINT "ChangePoint_metricId_fkey" FOREIGN KEY ("metricId") REFERENCES "Metric"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChangePoint" ADD CONSTRAINT "ChangePoint_variantId_fkey" FOREIGN KEY ("variantId") REFERENCES "Variant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChangePoint" ADD CONSTRAINT "ChangePoint_reviewedById_fkey" FOREIGN KEY ("reviewedById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;
