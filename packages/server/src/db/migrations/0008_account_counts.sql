-- One account_machine_status row per account, carrying the account's class and
-- liveness and a bitmask of its machine statuses, and insert-only per-(class, flags)
-- count deltas, so the accounts list counts class and status filters by summing a
-- few rows instead of joining and scanning every account (issue 2 budget).
CREATE TABLE "account_count_deltas" (
	"class_id" integer NOT NULL,
	"status_flags" smallint NOT NULL,
	"n" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "account_machine_status" ADD COLUMN "class_id" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "account_machine_status" ADD COLUMN "live" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "account_machine_status" ADD COLUMN "status_flags" smallint GENERATED ALWAYS AS (((needs_admin > 0)::int | ((unmanaged > 0)::int << 1) | ((manual_maintenance > 0)::int << 2) | ((stopped > 0)::int << 3) | ((turbo > 0)::int << 4) | ((obsolete > 0)::int << 5) | ((idle > 0)::int << 6))::smallint) STORED NOT NULL;--> statement-breakpoint
UPDATE "account_machine_status" s SET "class_id" = a."class_id", "live" = a."deleted_at" IS NULL
  FROM "accounts" a WHERE a."id" = s."account_id";--> statement-breakpoint
INSERT INTO "account_machine_status" ("account_id", "class_id", "live")
  SELECT a."id", a."class_id", a."deleted_at" IS NULL FROM "accounts" a
  ON CONFLICT ("account_id") DO NOTHING;--> statement-breakpoint
ALTER TABLE "account_machine_status" ALTER COLUMN "class_id" DROP DEFAULT;--> statement-breakpoint
-- The machine recount (migration 0002) also creates a missing row with the account's class.
CREATE OR REPLACE FUNCTION refresh_account_machine_status(account_ids integer[]) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO account_machine_status AS s
    (account_id, class_id, live, machines, needs_admin, unmanaged, manual_maintenance, stopped, turbo, obsolete, idle)
  SELECT acc.id, acc.class_id, acc.deleted_at IS NULL,
    count(m.id),
    count(m.id) FILTER (WHERE m.needs_admin),
    count(m.id) FILTER (WHERE NOT m.managed),
    count(m.id) FILTER (WHERE m.manual_maintenance),
    count(m.id) FILTER (WHERE m.stop),
    count(m.id) FILTER (WHERE m.turbo),
    count(m.id) FILTER (WHERE m.obsolete),
    count(m.id) FILTER (WHERE m.idle)
  FROM unnest(account_ids) AS a(id)
  JOIN accounts acc ON acc.id = a.id
  LEFT JOIN machines m ON m.account_id = a.id AND m.deleted_at IS NULL
  GROUP BY acc.id
  ON CONFLICT (account_id) DO UPDATE SET
    machines = excluded.machines,
    needs_admin = excluded.needs_admin,
    unmanaged = excluded.unmanaged,
    manual_maintenance = excluded.manual_maintenance,
    stopped = excluded.stopped,
    turbo = excluded.turbo,
    obsolete = excluded.obsolete,
    idle = excluded.idle
  WHERE (s.machines, s.needs_admin, s.unmanaged, s.manual_maintenance, s.stopped, s.turbo, s.obsolete, s.idle)
    IS DISTINCT FROM (excluded.machines, excluded.needs_admin, excluded.unmanaged, excluded.manual_maintenance,
      excluded.stopped, excluded.turbo, excluded.obsolete, excluded.idle);
$$;
--> statement-breakpoint
-- A new account gets its status row; a class change or a (soft) delete follows to it.
CREATE OR REPLACE FUNCTION accounts_status_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO account_machine_status (account_id, class_id, live)
    SELECT id, class_id, deleted_at IS NULL FROM new_rows
    ON CONFLICT (account_id) DO NOTHING;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION accounts_status_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE account_machine_status s SET class_id = n.class_id, live = n.deleted_at IS NULL
    FROM new_rows n
    WHERE s.account_id = n.id AND (s.class_id <> n.class_id OR s.live <> (n.deleted_at IS NULL));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER accounts_status_inserted AFTER INSERT ON accounts
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION accounts_status_inserted();
--> statement-breakpoint
CREATE TRIGGER accounts_status_updated AFTER UPDATE ON accounts
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION accounts_status_updated();
--> statement-breakpoint
-- Every change of a live account's (class, flags) bucket adds a -1 and a +1 delta;
-- a statement that changes no bucket (most machine recounts) adds nothing.
CREATE OR REPLACE FUNCTION account_counts_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO account_count_deltas (class_id, status_flags, n)
      SELECT class_id, status_flags, count(*) FROM new_rows WHERE live GROUP BY class_id, status_flags;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO account_count_deltas (class_id, status_flags, n)
      SELECT class_id, status_flags, -count(*) FROM old_rows WHERE live GROUP BY class_id, status_flags;
  ELSE
    INSERT INTO account_count_deltas (class_id, status_flags, n)
      SELECT class_id, status_flags, sum(n)::int FROM (
        SELECT class_id, status_flags, -1 AS n FROM old_rows WHERE live
        UNION ALL
        SELECT class_id, status_flags, 1 FROM new_rows WHERE live
      ) d
      GROUP BY class_id, status_flags HAVING sum(n) <> 0;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER account_counts_inserted AFTER INSERT ON account_machine_status
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION account_counts_changed();
--> statement-breakpoint
CREATE TRIGGER account_counts_updated AFTER UPDATE ON account_machine_status
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION account_counts_changed();
--> statement-breakpoint
CREATE TRIGGER account_counts_deleted AFTER DELETE ON account_machine_status
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION account_counts_changed();
--> statement-breakpoint
INSERT INTO account_count_deltas (class_id, status_flags, n)
  SELECT class_id, status_flags, count(*) FROM account_machine_status WHERE live GROUP BY class_id, status_flags;
