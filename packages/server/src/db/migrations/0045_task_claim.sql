-- The common claim of a machine's next task (engine/tasks/tasks.repository.ts claimNext) in one call:
-- under the machine's claim lock, the oldest New task becomes Running (attempt 1) unless one is Running.
-- The UPDATE runs after the lock is taken, with its own snapshot (a VOLATILE function's statements each
-- take one), so it sees every claim and finish committed before the lock was granted. Answers no row
-- when nothing was claimed; the caller then looks at a Running task in a transaction of its own.
CREATE FUNCTION claim_machine_task(lock_namespace integer, machine integer, claimer text)
RETURNS SETOF machine_tasks
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(lock_namespace, machine);
  -- clock_timestamp(), not now(): the call may have waited on the lock while the previous task finished,
  -- and a task never starts before the one before it completed.
  RETURN QUERY
  UPDATE machine_tasks
  SET status = 'Running', started_at = clock_timestamp(), attempts = 1, heartbeat_at = clock_timestamp(), worker = claimer, progress = 0
  WHERE id = (
    SELECT n.id FROM machine_tasks n
    WHERE n.machine_id = machine AND n.status = 'New'
      AND NOT EXISTS (SELECT 1 FROM machine_tasks r WHERE r.machine_id = machine AND r.status = 'Running')
    ORDER BY n.id LIMIT 1 FOR UPDATE)
  RETURNING *;
END
$$;
