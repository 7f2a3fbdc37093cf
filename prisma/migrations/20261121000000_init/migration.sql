-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "MemberRole" AS ENUM ('owner', 'member', 'viewer');

-- CreateEnum
CREATE TYPE "ExperimentStatus" AS ENUM ('draft', 'active', 'completed', 'archived');

-- CreateEnum
CREATE TYPE "MetricDirection" AS ENUM ('lower_is_better', 'higher_is_better');

-- CreateEnum
CREATE TYPE "MetricAggregation" AS ENUM ('mean', 'median', 'p90', 'p95', 'p99', 'min', 'max', 'sum', 'rate', 'last');

-- CreateEnum
CREATE TYPE "RunStatus" AS ENUM ('queued', 'running', 'succeeded', 'failed', 'cancelled');

-- CreateEnum
CREATE TYPE "RunSource" AS ENUM ('agent', 'upload', 'import', 'example');

-- CreateEnum
CREATE TYPE "JobStatus" AS ENUM ('queued', 'leased', 'succeeded', 'failed', 'cancelled');

-- CreateEnum
CREATE TYPE "AgentKind" AS ENUM ('go', 'jvm', 'other');

-- CreateEnum
CREATE TYPE "ShareMode" AS ENUM ('live', 'snapshot');

-- CreateTable
CREATE TABLE "InstanceSetting" (
    "key" TEXT NOT NULL,
    "value" JSONB NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "InstanceSetting_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "User" (
    "id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "User_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Project" (
    "id" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Project_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Member" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "role" "MemberRole" NOT NULL DEFAULT 'member',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Member_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ApiKey" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "secretHash" TEXT NOT NULL,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),

    CONSTRAINT "ApiKey_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AgentEnrollmentToken" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),
    "lastUsedAt" TIMESTAMP(3),

    CONSTRAINT "AgentEnrollmentToken_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Agent" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "kind" "AgentKind" NOT NULL,
    "version" TEXT NOT NULL,
    "capabilities" TEXT[],
    "labels" JSONB NOT NULL DEFAULT '{}',
    "tokenHash" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastHeartbeatAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),

    CONSTRAINT "Agent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Experiment" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "hypothesis" TEXT NOT NULL DEFAULT '',
    "description" TEXT NOT NULL DEFAULT '',
    "environmentNotes" TEXT NOT NULL DEFAULT '',
    "parameters" JSONB NOT NULL DEFAULT '[]',
    "warmupRuns" INTEGER NOT NULL DEFAULT 0,
    "measuredRuns" INTEGER NOT NULL DEFAULT 1,
    "alpha" DOUBLE PRECISION NOT NULL DEFAULT 0.05,
    "status" "ExperimentStatus" NOT NULL DEFAULT 'draft',
    "tags" TEXT[],
    "isExample" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Experiment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Variant" (
    "id" TEXT NOT NULL,
    "experimentId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "isBaseline" BOOLEAN NOT NULL DEFAULT false,
    "config" JSONB NOT NULL DEFAULT '{}',
    "position" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Variant_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Metric" (
    "id" TEXT NOT NULL,
    "experimentId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "label" TEXT NOT NULL DEFAULT '',
    "unit" TEXT NOT NULL,
    "direction" "MetricDirection" NOT NULL,
    "aggregation" "MetricAggregation" NOT NULL DEFAULT 'mean',
    "position" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Metric_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "IngestRequest" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "idempotencyKey" TEXT NOT NULL,
    "bodySha256" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "IngestRequest_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Run" (
    "id" TEXT NOT NULL,
    "experimentId" TEXT NOT NULL,
    "variantId" TEXT NOT NULL,
    "status" "RunStatus" NOT NULL DEFAULT 'succeeded',
    "source" "RunSource" NOT NULL,
    "sourceDetail" TEXT NOT NULL DEFAULT '',
    "repetition" INTEGER NOT NULL DEFAULT 0,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),
    "environment" JSONB NOT NULL DEFAULT '{}',
    "gitCommit" TEXT,
    "gitBranch" TEXT,
    "tags" TEXT[],
    "ingestRequestId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Run_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RunMetricResult" (
    "id" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "metricId" TEXT NOT NULL,
    "n" BIGINT NOT NULL,
    "mean" DOUBLE PRECISION NOT NULL,
    "sd" DOUBLE PRECISION,
    "min" DOUBLE PRECISION NOT NULL,
    "max" DOUBLE PRECISION NOT NULL,
    "p50" DOUBLE PRECISION,
    "p90" DOUBLE PRECISION,
    "p95" DOUBLE PRECISION,
    "p99" DOUBLE PRECISION,
    "p999" DOUBLE PRECISION,
    "sum" DOUBLE PRECISION,
    "histogram" BYTEA,
    "samples" BYTEA,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RunMetricResult_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RunTimeSeries" (
    "id" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "metricId" TEXT NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "offsetsMs" DOUBLE PRECISION[],
    "values" DOUBLE PRECISION[],
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RunTimeSeries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Job" (
    "id" TEXT NOT NULL,
    "experimentId" TEXT NOT NULL,
    "variantId" TEXT NOT NULL,
    "repetition" INTEGER NOT NULL,
    "requiredLabels" JSONB NOT NULL DEFAULT '{}',
    "capabilities" TEXT[],
    "payload" JSONB NOT NULL DEFAULT '{}',
    "status" "JobStatus" NOT NULL DEFAULT 'queued',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "maxAttempts" INTEGER NOT NULL DEFAULT 3,
    "leaseExpiresAt" TIMESTAMP(3),
    "agentId" TEXT,
    "runId" TEXT,
    "error" TEXT,
    "cancelRequested" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Job_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ShareLink" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "experimentId" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "mode" "ShareMode" NOT NULL DEFAULT 'live',
    "view" JSONB NOT NULL DEFAULT '{}',
    "snapshot" JSONB,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),

    CONSTRAINT "ShareLink_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");

-- CreateIndex
CREATE UNIQUE INDEX "Project_slug_key" ON "Project"("slug");

-- CreateIndex
CREATE INDEX "Member_userId_idx" ON "Member"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "Member_projectId_userId_key" ON "Member"("projectId", "userId");

-- CreateIndex
CREATE UNIQUE INDEX "ApiKey_secretHash_key" ON "ApiKey"("secretHash");

-- CreateIndex
CREATE INDEX "ApiKey_projectId_idx" ON "ApiKey"("projectId");

-- CreateIndex
CREATE UNIQUE INDEX "AgentEnrollmentToken_tokenHash_key" ON "AgentEnrollmentToken"("tokenHash");

-- CreateIndex
CREATE INDEX "AgentEnrollmentToken_projectId_idx" ON "AgentEnrollmentToken"("projectId");

-- CreateIndex
CREATE UNIQUE INDEX "Agent_tokenHash_key" ON "Agent"("tokenHash");

-- CreateIndex
CREATE UNIQUE INDEX "Agent_projectId_name_key" ON "Agent"("projectId", "name");

-- CreateIndex
CREATE INDEX "Experiment_projectId_updatedAt_idx" ON "Experiment"("projectId", "updatedAt" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "Experiment_projectId_slug_key" ON "Experiment"("projectId", "slug");

-- CreateIndex
CREATE UNIQUE INDEX "Variant_experimentId_name_key" ON "Variant"("experimentId", "name");

-- CreateIndex
CREATE UNIQUE INDEX "Variant_id_experimentId_key" ON "Variant"("id", "experimentId");

-- CreateIndex
CREATE UNIQUE INDEX "Metric_experimentId_key_key" ON "Metric"("experimentId", "key");

-- CreateIndex
CREATE UNIQUE INDEX "IngestRequest_projectId_idempotencyKey_key" ON "IngestRequest"("projectId", "idempotencyKey");

-- CreateIndex
CREATE INDEX "Run_experimentId_createdAt_idx" ON "Run"("experimentId", "createdAt");

-- CreateIndex
CREATE INDEX "Run_variantId_experimentId_idx" ON "Run"("variantId", "experimentId");

-- CreateIndex
CREATE INDEX "Run_experimentId_gitCommit_idx" ON "Run"("experimentId", "gitCommit");

-- CreateIndex
CREATE INDEX "Run_ingestRequestId_idx" ON "Run"("ingestRequestId");

-- CreateIndex
CREATE INDEX "RunMetricResult_metricId_idx" ON "RunMetricResult"("metricId");

-- CreateIndex
CREATE UNIQUE INDEX "RunMetricResult_runId_metricId_key" ON "RunMetricResult"("runId", "metricId");

-- CreateIndex
CREATE INDEX "RunTimeSeries_metricId_idx" ON "RunTimeSeries"("metricId");

-- CreateIndex
CREATE UNIQUE INDEX "RunTimeSeries_runId_metricId_key" ON "RunTimeSeries"("runId", "metricId");

-- CreateIndex
CREATE UNIQUE INDEX "Job_runId_key" ON "Job"("runId");

-- CreateIndex
CREATE INDEX "Job_status_createdAt_idx" ON "Job"("status", "createdAt");

-- CreateIndex
CREATE INDEX "Job_experimentId_idx" ON "Job"("experimentId");

-- CreateIndex
CREATE INDEX "Job_agentId_idx" ON "Job"("agentId");

-- CreateIndex
CREATE INDEX "Job_variantId_experimentId_idx" ON "Job"("variantId", "experimentId");

-- CreateIndex
CREATE UNIQUE INDEX "ShareLink_tokenHash_key" ON "ShareLink"("tokenHash");

-- CreateIndex
CREATE INDEX "ShareLink_projectId_idx" ON "ShareLink"("projectId");

-- CreateIndex
CREATE INDEX "ShareLink_experimentId_idx" ON "ShareLink"("experimentId");

-- AddForeignKey
ALTER TABLE "Member" ADD CONSTRAINT "Member_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Member" ADD CONSTRAINT "Member_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApiKey" ADD CONSTRAINT "ApiKey_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApiKey" ADD CONSTRAINT "ApiKey_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AgentEnrollmentToken" ADD CONSTRAINT "AgentEnrollmentToken_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Agent" ADD CONSTRAINT "Agent_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Experiment" ADD CONSTRAINT "Experiment_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Variant" ADD CONSTRAINT "Variant_experimentId_fkey" FOREIGN KEY ("experimentId") REFERENCES "Experiment"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Metric" ADD CONSTRAINT "Metric_experimentId_fkey" FOREIGN KEY ("experimentId") REFERENCES "Experiment"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "IngestRequest" ADD CONSTRAINT "IngestRequest_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Run" ADD CONSTRAINT "Run_experimentId_fkey" FOREIGN KEY ("experimentId") REFERENCES "Experiment"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Run" ADD CONSTRAINT "Run_variantId_experimentId_fkey" FOREIGN KEY ("variantId", "experimentId") REFERENCES "Variant"("id", "experimentId") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Run" ADD CONSTRAINT "Run_ingestRequestId_fkey" FOREIGN KEY ("ingestRequestId") REFERENCES "IngestRequest"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RunMetricResult" ADD CONSTRAINT "RunMetricResult_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RunMetricResult" ADD CONSTRAINT "RunMetricResult_metricId_fkey" FOREIGN KEY ("metricId") REFERENCES "Metric"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RunTimeSeries" ADD CONSTRAINT "RunTimeSeries_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RunTimeSeries" ADD CONSTRAINT "RunTimeSeries_metricId_fkey" FOREIGN KEY ("metricId") REFERENCES "Metric"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Job" ADD CONSTRAINT "Job_experimentId_fkey" FOREIGN KEY ("experimentId") REFERENCES "Experiment"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Job" ADD CONSTRAINT "Job_variantId_experimentId_fkey" FOREIGN KEY ("variantId", "experimentId") REFERENCES "Variant"("id", "experimentId") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Job" ADD CONSTRAINT "Job_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Job" ADD CONSTRAINT "Job_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ShareLink" ADD CONSTRAINT "ShareLink_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ShareLink" ADD CONSTRAINT "ShareLink_experimentId_fkey" FOREIGN KEY ("experimentId") REFERENCES "Experiment"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ShareLink" ADD CONSTRAINT "ShareLink_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- ---------------------------------------------------------------------------------------------
-- Constraints Prisma's schema language cannot express. Keep server/db/sql-only-objects.ts in sync.
-- ---------------------------------------------------------------------------------------------

-- Sane counts and significance level, whatever client writes the row.
ALTER TABLE "Experiment" ADD CONSTRAINT "Experiment_title_not_blank" CHECK (length(btrim("title")) > 0);
ALTER TABLE "Experiment" ADD CONSTRAINT "Experiment_slug_format" CHECK ("slug" ~ '^[a-z0-9]+(-[a-z0-9]+)*$');
ALTER TABLE "Experiment" ADD CONSTRAINT "Experiment_run_counts_valid" CHECK ("warmupRuns" >= 0 AND "measuredRuns" >= 1);
ALTER TABLE "Experiment" ADD CONSTRAINT "Experiment_alpha_range" CHECK ("alpha" > 0 AND "alpha" < 1);
ALTER TABLE "Project" ADD CONSTRAINT "Project_slug_format" CHECK ("slug" ~ '^[a-z0-9]+(-[a-z0-9]+)*$');
ALTER TABLE "Variant" ADD CONSTRAINT "Variant_name_not_blank" CHECK (length(btrim("name")) > 0);
ALTER TABLE "Metric" ADD CONSTRAINT "Metric_key_not_blank" CHECK (length(btrim("key")) > 0);
ALTER TABLE "Metric" ADD CONSTRAINT "Metric_unit_not_blank" CHECK (length(btrim("unit")) > 0);
ALTER TABLE "RunMetricResult" ADD CONSTRAINT "RunMetricResult_n_positive" CHECK ("n" > 0);
ALTER TABLE "RunTimeSeries" ADD CONSTRAINT "RunTimeSeries_lengths_match" CHECK (cardinality("offsetsMs") = cardinality("values"));
ALTER TABLE "Job" ADD CONSTRAINT "Job_attempts_valid" CHECK ("attempts" >= 0 AND "maxAttempts" >= 1 AND "repetition" >= 0);

-- Exactly one baseline per experiment. "At most one" is a partial unique index (immediate);
-- "at least one" is a constraint trigger checked at commit, so an experiment and its variants
-- can be written in one transaction and a baseline can be moved from one variant to another.
CREATE UNIQUE INDEX "Variant_one_baseline_per_experiment" ON "Variant"("experimentId") WHERE "isBaseline";

CREATE FUNCTION "versus_require_baseline"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  experiment_ids TEXT[];
  experiment_id TEXT;
BEGIN
  IF TG_TABLE_NAME = 'Experiment' THEN
    experiment_ids := ARRAY[NEW."id"];
  ELSIF TG_OP = 'INSERT' THEN
    experiment_ids := ARRAY[NEW."experimentId"];
  ELSIF TG_OP = 'DELETE' THEN
    experiment_ids := ARRAY[OLD."experimentId"];
  ELSE
    experiment_ids := ARRAY[OLD."experimentId", NEW."experimentId"];
  END IF;
  FOREACH experiment_id IN ARRAY experiment_ids LOOP
    -- An experiment deleted in the same transaction needs no baseline.
    IF EXISTS (SELECT 1 FROM "Experiment" WHERE "id" = experiment_id)
       AND NOT EXISTS (SELECT 1 FROM "Variant" WHERE "experimentId" = experiment_id AND "isBaseline") THEN
      RAISE EXCEPTION 'experiment % has no baseline variant: exactly one variant must be the baseline', experiment_id
        USING ERRCODE = 'check_violation', CONSTRAINT = 'Experiment_exactly_one_baseline';
    END IF;
  END LOOP;
  RETURN NULL;
END
$$;

CREATE CONSTRAINT TRIGGER "Experiment_exactly_one_baseline" AFTER INSERT ON "Experiment"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "versus_require_baseline"();

CREATE CONSTRAINT TRIGGER "Variant_exactly_one_baseline" AFTER INSERT OR UPDATE OR DELETE ON "Variant"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "versus_require_baseline"();
