-- Keeps account_machine_status equal to the live machines of each account, in the
-- transaction that changes them. Statement-level triggers with transition tables:
-- one recount per statement for the accounts it touched, so bulk inserts stay cheap.
CREATE OR REPLACE FUNCTION refresh_account_machine_status(account_ids integer[]) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO account_machine_status AS s
    (account_id, machines, needs_admin, unmanaged, manual_maintenance, stopped, turbo, obsolete, idle)
  SELECT a.id,
    count(m.id),
    count(m.id) FILTER (WHERE m.needs_admin),
    count(m.id) FILTER (WHERE NOT m.managed),
    count(m.id) FILTER (WHERE m.manual_maintenance),
    count(m.id) FILTER (WHERE m.stop),
    count(m.id) FILTER (WHERE m.turbo),
    count(m.id) FILTER (WHERE m.obsolete),
    count(m.id) FILTER (WHERE m.idle)
  FROM unnest(account_ids) AS a(id)
  LEFT JOIN machines m ON m.account_id = a.id AND m.deleted_at IS NULL
  GROUP BY a.id
  ON CONFLICT (account_id) DO UPDATE SET
    machines = excluded.machines,
    needs_admin = excluded.needs_admin,
    unmanaged = excluded.unmanaged,
    manual_maintenance = excluded.manual_maintenance,
    stopped = excluded.stopped,
    turbo = excluded.turbo,
    obsolete = excluded.obsolete,
    idle = excluded.idle;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION machines_refresh_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM refresh_account_machine_status(ARRAY(SELECT DISTINCT account_id FROM new_rows));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION machines_refresh_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM refresh_account_machine_status(ARRAY(
    SELECT account_id FROM old_rows UNION SELECT account_id FROM new_rows));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION machines_refresh_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM refresh_account_machine_status(ARRAY(SELECT DISTINCT account_id FROM old_rows));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER machines_status_inserted AFTER INSERT ON machines
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION machines_refresh_inserted();
--> statement-breakpoint
CREATE TRIGGER machines_status_updated AFTER UPDATE ON machines
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION machines_refresh_updated();
--> statement-breakpoint
CREATE TRIGGER machines_status_deleted AFTER DELETE ON machines
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION machines_refresh_deleted();
--> statement-breakpoint
SELECT refresh_account_machine_status(ARRAY(SELECT DISTINCT account_id FROM machines));
