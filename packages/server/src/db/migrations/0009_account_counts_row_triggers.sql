-- The count deltas of migration 0008 from row-level triggers whose WHEN clause is
-- checked without calling a function: a machine recount that leaves the account's
-- bucket as it was (nearly all of them) no longer runs a statement over transition
-- tables; the task engine lost about 10 % of its throughput to that.
DROP TRIGGER account_counts_inserted ON account_machine_status;--> statement-breakpoint
DROP TRIGGER account_counts_updated ON account_machine_status;--> statement-breakpoint
DROP TRIGGER account_counts_deleted ON account_machine_status;--> statement-breakpoint
DROP FUNCTION account_counts_changed();--> statement-breakpoint
CREATE FUNCTION account_count_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.live THEN
    INSERT INTO account_count_deltas (class_id, status_flags, n) VALUES (OLD.class_id, OLD.status_flags, -1);
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') AND NEW.live THEN
    INSERT INTO account_count_deltas (class_id, status_flags, n) VALUES (NEW.class_id, NEW.status_flags, 1);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER account_count_inserted AFTER INSERT ON account_machine_status
  FOR EACH ROW WHEN (NEW.live) EXECUTE FUNCTION account_count_moved();
--> statement-breakpoint
CREATE TRIGGER account_count_updated AFTER UPDATE ON account_machine_status
  FOR EACH ROW WHEN ((OLD.class_id, OLD.status_flags, OLD.live) IS DISTINCT FROM (NEW.class_id, NEW.status_flags, NEW.live))
  EXECUTE FUNCTION account_count_moved();
--> statement-breakpoint
CREATE TRIGGER account_count_deleted AFTER DELETE ON account_machine_status
  FOR EACH ROW WHEN (OLD.live) EXECUTE FUNCTION account_count_moved();
