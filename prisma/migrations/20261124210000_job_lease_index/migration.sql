-- Every claim looks for leases that expired (to offer the job again, or to settle it when it may
-- not run again): without an index that was a scan of all the project's jobs per claim, which
-- made claims slower the more jobs a project had ever run. Leased jobs are few (one per busy
-- agent), so this partial index stays small.
CREATE INDEX "Job_leased" ON "Job"("projectId", "leaseExpiresAt") WHERE "status" = 'leased';
