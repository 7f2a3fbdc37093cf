-- "Runs were stored": the work that follows new runs of an experiment (recomputing its history's
-- change points, then evaluating its alert rules) as rows, written in the transaction that stores
-- the runs, so that it commits with them and survives a restart (server/runs/runs-stored.ts). Any
-- server process claims a row (lockedUntil), does the work (server/background/) and deletes it,
-- or gives it back with a later runAfter when the work failed.

-- CreateTable
CREATE TABLE "RunsStoredTask" (
    "id" TEXT NOT NULL,
    "experimentId" TEXT NOT NULL,
    "runAfter" TIMESTAMP(3) NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lockedUntil" TIMESTAMP(3),
    "lastError" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RunsStoredTask_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "RunsStoredTask_experimentId_idx" ON "RunsStoredTask"("experimentId");

-- CreateIndex
CREATE INDEX "RunsStoredTask_runAfter_idx" ON "RunsStoredTask"("runAfter");

-- AddForeignKey
ALTER TABLE "RunsStoredTask" ADD CONSTRAINT "RunsStoredTask_experimentId_fkey" FOREIGN KEY ("experimentId") REFERENCES "Experiment"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Every insert wakes the processes' background workers when its transaction commits (LISTEN on
-- versus_runs_stored; server/db/wakeups.ts), whichever statement wrote it.
CREATE FUNCTION "notify_runs_stored"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('versus_runs_stored', 'stored');
  RETURN NULL;
END;
$$;

CREATE TRIGGER "RunsStoredTask_inserted_notify" AFTER INSERT ON "RunsStoredTask"
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_runs_stored"();
