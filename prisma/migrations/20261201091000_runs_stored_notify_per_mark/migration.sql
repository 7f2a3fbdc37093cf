-- A "runs stored" mark wakes the background workers only when one is stored. The trigger ran per
-- statement, and every statement that stores runs has the mark's INSERT in it, with no row when
-- no run names a commit: each upload without a commit woke every process's worker for nothing
-- (bench/load.ts: a claim and a look for the next mark per upload, found empty). Per row now, the
-- experiment's id as payload: PostgreSQL delivers one notification per transaction for the same
-- channel and payload, so a burst of marks of one experiment is still one wake-up.
DROP TRIGGER "RunsStoredTask_inserted_notify" ON "RunsStoredTask";

CREATE OR REPLACE FUNCTION "notify_runs_stored"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('versus_runs_stored', NEW."experimentId");
  RETURN NULL;
END;
$$;

CREATE TRIGGER "RunsStoredTask_inserted_notify" AFTER INSERT ON "RunsStoredTask"
  FOR EACH ROW EXECUTE FUNCTION "notify_runs_stored"();
