CREATE TABLE "rollout_wave_decisions" (
	"rollout_id" integer NOT NULL,
	"wave" integer NOT NULL,
	"decision" text NOT NULL,
	"decided_by" text NOT NULL,
	"reason" text NOT NULL,
	"decided_at" timestamp with time zone DEFAULT now() NOT NULL,
	"activity_id" integer,
	CONSTRAINT "rollout_wave_decisions_rollout_id_wave_pk" PRIMARY KEY("rollout_id","wave")
);
--> statement-breakpoint
ALTER TABLE "operations" ADD COLUMN "decision_reason" text;--> statement-breakpoint
ALTER TABLE "rollout_waves" ADD COLUMN "awaiting_approval" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "rollout_wave_decisions" ADD CONSTRAINT "rollout_wave_decisions_rollout_id_rollouts_id_fk" FOREIGN KEY ("rollout_id") REFERENCES "public"."rollouts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rollout_wave_decisions" ADD CONSTRAINT "rollout_wave_decisions_activity_id_audit_activities_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."audit_activities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "rollout_targets_activity_idx" ON "rollout_targets" USING btree ("activity_id");--> statement-breakpoint
-- rollout_waves counts the new target state AwaitingApproval (issue 25 point 1): the
-- functions of migration 0026 again, with its column (no existing target is in it).
CREATE OR REPLACE FUNCTION refresh_rollout_waves(rollout_ids integer[]) RETURNS void LANGUAGE sql AS $$
  DELETE FROM rollout_waves w WHERE w.rollout_id = ANY(rollout_ids)
    AND NOT EXISTS (SELECT 1 FROM rollout_targets t WHERE t.rollout_id = w.rollout_id AND t.wave = w.wave);
  INSERT INTO rollout_waves AS w
    (rollout_id, wave, pending, deploying, awaiting_approval, succeeded, failed, skipped, not_applied, size, started_at, last_change_at)
  SELECT t.rollout_id, t.wave,
    count(*) FILTER (WHERE t.state = 'Pending'),
    count(*) FILTER (WHERE t.state = 'Deploying'),
    count(*) FILTER (WHERE t.state = 'AwaitingApproval'),
    count(*) FILTER (WHERE t.state = 'Succeeded'),
    count(*) FILTER (WHERE t.state = 'Failed'),
    count(*) FILTER (WHERE t.state = 'Skipped'),
    count(*) FILTER (WHERE t.state = 'NotApplied'),
    count(*), min(a.time), max(t.updated_at)
  FROM rollout_targets t LEFT JOIN audit_activities a ON a.id = t.activity_id
  WHERE t.rollout_id = ANY(rollout_ids)
  GROUP BY t.rollout_id, t.wave ORDER BY t.rollout_id, t.wave
  ON CONFLICT (rollout_id, wave) DO UPDATE SET
    pending = excluded.pending, deploying = excluded.deploying, awaiting_approval = excluded.awaiting_approval, succeeded = excluded.succeeded, failed = excluded.failed,
    skipped = excluded.skipped, not_applied = excluded.not_applied, size = excluded.size,
    started_at = excluded.started_at, last_change_at = excluded.last_change_at;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION rollout_waves_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH started AS (
    SELECT x.rollout_id, x.wave, min(a.time) AS started_at
    FROM (SELECT DISTINCT rollout_id, wave, activity_id FROM new_rows WHERE activity_id IS NOT NULL) x
    JOIN audit_activities a ON a.id = x.activity_id GROUP BY x.rollout_id, x.wave)
  INSERT INTO rollout_waves AS w
    (rollout_id, wave, pending, deploying, awaiting_approval, succeeded, failed, skipped, not_applied, size, started_at, last_change_at)
  SELECT d.rollout_id, d.wave,
    count(*) FILTER (WHERE d.state = 'Pending'),
    count(*) FILTER (WHERE d.state = 'Deploying'),
    count(*) FILTER (WHERE d.state = 'AwaitingApproval'),
    count(*) FILTER (WHERE d.state = 'Succeeded'),
    count(*) FILTER (WHERE d.state = 'Failed'),
    count(*) FILTER (WHERE d.state = 'Skipped'),
    count(*) FILTER (WHERE d.state = 'NotApplied'),
    count(*), min(s.started_at), max(d.updated_at)
  FROM new_rows d LEFT JOIN started s ON s.rollout_id = d.rollout_id AND s.wave = d.wave
  GROUP BY d.rollout_id, d.wave ORDER BY d.rollout_id, d.wave
  ON CONFLICT (rollout_id, wave) DO UPDATE SET
    pending = w.pending + excluded.pending, deploying = w.deploying + excluded.deploying,
    awaiting_approval = w.awaiting_approval + excluded.awaiting_approval,
    succeeded = w.succeeded + excluded.succeeded, failed = w.failed + excluded.failed,
    skipped = w.skipped + excluded.skipped, not_applied = w.not_applied + excluded.not_applied,
    size = w.size + excluded.size,
    started_at = least(w.started_at, excluded.started_at),
    last_change_at = greatest(w.last_change_at, excluded.last_change_at);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION rollout_waves_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH d AS (
    SELECT rollout_id, wave, state, 1 AS n, updated_at FROM new_rows
    UNION ALL SELECT rollout_id, wave, state, -1, NULL FROM old_rows),
  started AS (
    SELECT x.rollout_id, x.wave, min(a.time) AS started_at
    FROM (SELECT DISTINCT rollout_id, wave, activity_id FROM new_rows WHERE activity_id IS NOT NULL) x
    JOIN audit_activities a ON a.id = x.activity_id GROUP BY x.rollout_id, x.wave)
  INSERT INTO rollout_waves AS w
    (rollout_id, wave, pending, deploying, awaiting_approval, succeeded, failed, skipped, not_applied, size, started_at, last_change_at)
  SELECT d.rollout_id, d.wave,
    coalesce(sum(d.n) FILTER (WHERE d.state = 'Pending'), 0),
    coalesce(sum(d.n) FILTER (WHERE d.state = 'Deploying'), 0),
    coalesce(sum(d.n) FILTER (WHERE d.state = 'AwaitingApproval'), 0),
    coalesce(sum(d.n) FILTER (WHERE d.state = 'Succeeded'), 0),
    coalesce(sum(d.n) FILTER (WHERE d.state = 'Failed'), 0),
    coalesce(sum(d.n) FILTER (WHERE d.state = 'Skipped'), 0),
    coalesce(sum(d.n) FILTER (WHERE d.state = 'NotApplied'), 0),
    sum(d.n), min(s.started_at), max(d.updated_at)
  FROM d LEFT JOIN started s ON s.rollout_id = d.rollout_id AND s.wave = d.wave
  GROUP BY d.rollout_id, d.wave ORDER BY d.rollout_id, d.wave
  ON CONFLICT (rollout_id, wave) DO UPDATE SET
    pending = w.pending + excluded.pending, deploying = w.deploying + excluded.deploying,
    awaiting_approval = w.awaiting_approval + excluded.awaiting_approval,
    succeeded = w.succeeded + excluded.succeeded, failed = w.failed + excluded.failed,
    skipped = w.skipped + excluded.skipped, not_applied = w.not_applied + excluded.not_applied,
    size = w.size + excluded.size,
    started_at = least(w.started_at, excluded.started_at),
    last_change_at = greatest(w.last_change_at, excluded.last_change_at);
  -- A wave left without targets (a target moved to another wave) is no wave.
  DELETE FROM rollout_waves w USING (SELECT DISTINCT rollout_id, wave FROM old_rows) o
  WHERE w.rollout_id = o.rollout_id AND w.wave = o.wave AND w.size = 0;
  RETURN NULL;
END $$;
