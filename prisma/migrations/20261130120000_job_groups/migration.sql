-- Job groups: one load test split over several agents (docs/agent-protocol.md, "Job groups").
-- The shards of a group share its groupId, each with its index; each is claimed by a different
-- agent, reports ready, and starts at the group's start time once every shard is ready. A
-- shard's own run document is kept on it; the group's merged run is stored once. Jobs queued
-- before have no group.

-- AlterTable
ALTER TABLE "Job" ADD COLUMN     "groupId" TEXT,
ADD COLUMN     "shard" INTEGER,
ADD COLUMN     "shards" INTEGER NOT NULL DEFAULT 1,
ADD COLUMN     "readyAt" TIMESTAMP(3),
ADD COLUMN     "groupStartAt" TIMESTAMP(3),
ADD COLUMN     "clockOffsetMs" DOUBLE PRECISION,
ADD COLUMN     "shardRun" JSONB;

-- CreateIndex
CREATE INDEX "Job_groupId_idx" ON "Job"("groupId");
