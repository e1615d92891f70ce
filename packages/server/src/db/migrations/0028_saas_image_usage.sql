CREATE TABLE "saas_image_usage_deltas" (
	"image_name" text NOT NULL,
	"class_id" integer NOT NULL,
	"n" integer NOT NULL
);
--> statement-breakpoint
-- The SaaS images list's usage counts (live accounts per image name and class) as
-- deltas appended by row triggers on accounts, as account_count_deltas (0009) are:
-- the list sums a few rows instead of reading every live account (issue 23).
CREATE FUNCTION saas_image_usage_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.deleted_at IS NULL AND OLD.vm_image_name IS NOT NULL THEN
    INSERT INTO saas_image_usage_deltas (image_name, class_id, n) VALUES (OLD.vm_image_name, OLD.class_id, -1);
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') AND NEW.deleted_at IS NULL AND NEW.vm_image_name IS NOT NULL THEN
    INSERT INTO saas_image_usage_deltas (image_name, class_id, n) VALUES (NEW.vm_image_name, NEW.class_id, 1);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER saas_image_usage_inserted AFTER INSERT ON accounts
  FOR EACH ROW WHEN (NEW.deleted_at IS NULL AND NEW.vm_image_name IS NOT NULL) EXECUTE FUNCTION saas_image_usage_moved();
--> statement-breakpoint
CREATE TRIGGER saas_image_usage_updated AFTER UPDATE ON accounts
  FOR EACH ROW WHEN ((OLD.vm_image_name, OLD.class_id, OLD.deleted_at IS NULL) IS DISTINCT FROM (NEW.vm_image_name, NEW.class_id, NEW.deleted_at IS NULL))
  EXECUTE FUNCTION saas_image_usage_moved();
--> statement-breakpoint
CREATE TRIGGER saas_image_usage_deleted AFTER DELETE ON accounts
  FOR EACH ROW WHEN (OLD.deleted_at IS NULL AND OLD.vm_image_name IS NOT NULL) EXECUTE FUNCTION saas_image_usage_moved();
--> statement-breakpoint
INSERT INTO saas_image_usage_deltas (image_name, class_id, n)
  SELECT vm_image_name, class_id, count(*)::int FROM accounts
  WHERE deleted_at IS NULL AND vm_image_name IS NOT NULL
  GROUP BY vm_image_name, class_id;
