-- Job dispatch (docs/agent-protocol.md): agents enroll and advertise workloads, a batch of jobs
-- per press of "Run", and the queue columns the claim, lease, retry and cancel paths need.
-- No code wrote Job rows before this migration, so its new NOT NULL columns need no backfill.

-- CreateEnum
CREATE TYPE "JobOrder" AS ENUM ('interleaved', 'random');

-- DropForeignKey
ALTER TABLE "Job" DROP CONSTRAINT "Job_experimentId_fkey";

-- DropIndex
DROP INDEX "Job_status_createdAt_idx";

-- Agents are seen on any call, not only heartbeats: the column keeps its data under the new name.
ALTER TABLE "Agent" RENAME COLUMN "lastHeartbeatAt" TO "lastSeenAt";

-- AlterTable
ALTER TABLE "Agent" ADD COLUMN     "credentialPrefix" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "enrollmentTokenId" TEXT,
ADD COLUMN     "environment" JSONB NOT NULL DEFAULT '{}',
ADD COLUMN     "stopRequested" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "workloads" JSONB NOT NULL DEFAULT '[]';

-- AlterTable
ALTER TABLE "Job" ADD COLUMN     "batchId" TEXT NOT NULL,
ADD COLUMN     "finishedAt" TIMESTAMP(3),
ADD COLUMN     "leaseToken" TEXT,
ADD COLUMN     "logTail" TEXT,
ADD COLUMN     "pinnedAgentId" TEXT,
ADD COLUMN     "position" INTEGER NOT NULL,
ADD COLUMN     "projectId" TEXT NOT NULL,
ADD COLUMN     "runAfter" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ADD COLUMN     "startedAt" TIMESTAMP(3),
ADD COLUMN     "warmup" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "JobBatch" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "experimentId" TEXT NOT NULL,
    "createdById" TEXT,
    "order" "JobOrder" NOT NULL,
    "seed" INTEGER,
    "pinnedAgentId" TEXT,
    "requiredLabels" JSONB NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "cancelledAt" TIMESTAMP(3),

    CONSTRAINT "JobBatch_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "JobBatch_experimentId_createdAt_idx" ON "JobBatch"("experimentId", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "Agent_enrollmentTokenId_idx" ON "Agent"("enrollmentTokenId");

-- CreateIndex
CREATE UNIQUE INDEX "Experiment_id_projectId_key" ON "Experiment"("id", "projectId");

-- CreateIndex
CREATE INDEX "Job_batchId_position_idx" ON "Job"("batchId", "position");

-- CreateIndex
CREATE INDEX "Job_pinnedAgentId_idx" ON "Job"("pinnedAgentId");

-- AddForeignKey
ALTER TABLE "Agent" ADD CONSTRAINT "Agent_enrollmentTokenId_fkey" FOREIGN KEY ("enrollmentTokenId") REFERENCES "AgentEnrollmentToken"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "JobBatch" ADD CONSTRAINT "JobBatch_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "JobBatch" ADD CONSTRAINT "JobBatch_experimentId_projectId_fkey" FOREIGN KEY ("experimentId", "projectId") REFERENCES "Experiment"("id", "projectId") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "JobBatch" ADD CONSTRAINT "JobBatch_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "JobBatch" ADD CONSTRAINT "JobBatch_pinnedAgentId_fkey" FOREIGN KEY ("pinnedAgentId") REFERENCES "Agent"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Job" ADD CONSTRAINT "Job_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Job" ADD CONSTRAINT "Job_experimentId_projectId_fkey" FOREIGN KEY ("experimentId", "projectId") REFERENCES "Experiment"("id", "projectId") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Job" ADD CONSTRAINT "Job_batchId_fkey" FOREIGN KEY ("batchId") REFERENCES "JobBatch"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Job" ADD CONSTRAINT "Job_pinnedAgentId_fkey" FOREIGN KEY ("pinnedAgentId") REFERENCES "Agent"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- ---------------------------------------------------------------------------------------------
-- Objects Prisma's schema language cannot express. Keep server/db/sql-only-objects.ts in sync.
-- ---------------------------------------------------------------------------------------------

-- The claim query (server/jobs/claim.ts) looks only at claimable jobs of one project, in batch
-- order: queued ones, and leased ones whose lease may have expired. Finished jobs, which pile up,
-- drop out of the index.
CREATE INDEX "Job_claimable" ON "Job"("projectId", "createdAt", "batchId", "position") WHERE "status" IN ('queued', 'leased');

-- A leased job always has a lease to check and an expiry to re-offer it at.
ALTER TABLE "Job" ADD CONSTRAINT "Job_lease_complete" CHECK ("status" <> 'leased' OR ("leaseToken" IS NOT NULL AND "leaseExpiresAt" IS NOT NULL));
ALTER TABLE "Job" ADD CONSTRAINT "Job_position_valid" CHECK ("position" >= 0);
