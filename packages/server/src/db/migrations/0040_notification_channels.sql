CREATE TABLE "notification_channels" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"target" text NOT NULL,
	"secret" text,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notification_deliveries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"event_id" bigint NOT NULL,
	"channel_id" integer NOT NULL,
	"status" text DEFAULT 'Pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lease_until" timestamp with time zone,
	"lease_owner" text,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "notification_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"rollout_id" integer,
	"wave" integer,
	"operation_id" integer,
	"machine_id" integer,
	"account_id" integer,
	"class_id" integer,
	"issue_id" integer,
	"reopened" boolean DEFAULT false NOT NULL,
	"channel_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"fanned_out_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "notification_subscriptions" (
	"id" serial PRIMARY KEY NOT NULL,
	"channel_id" integer NOT NULL,
	"events" text[] NOT NULL,
	"class_id" integer,
	"account_id" integer,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "notification_deliveries" ADD CONSTRAINT "notification_deliveries_event_id_notification_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."notification_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_deliveries" ADD CONSTRAINT "notification_deliveries_channel_id_notification_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."notification_channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_events" ADD CONSTRAINT "notification_events_channel_id_notification_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."notification_channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_subscriptions" ADD CONSTRAINT "notification_subscriptions_channel_id_notification_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."notification_channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "notification_deliveries_event_channel_idx" ON "notification_deliveries" USING btree ("event_id","channel_id");--> statement-breakpoint
CREATE INDEX "notification_deliveries_due_idx" ON "notification_deliveries" USING btree ("next_attempt_at") WHERE status = 'Pending';--> statement-breakpoint
CREATE INDEX "notification_deliveries_channel_idx" ON "notification_deliveries" USING btree ("channel_id","id");--> statement-breakpoint
CREATE INDEX "notification_events_fan_out_idx" ON "notification_events" USING btree ("id") WHERE fanned_out_at is null;--> statement-breakpoint
CREATE INDEX "notification_subscriptions_channel_idx" ON "notification_subscriptions" USING btree ("channel_id");--> statement-breakpoint
-- Notification events (issue 28 point 3; engine/notification-delivery/README.md) are
-- captured by triggers in the transaction of the change itself, so every writer
-- (API, engine, MMA protocol, seed) is covered and a rolled-back change raises none.
-- An event is recorded only while some subscription names its kind (no table grows
-- for nobody), and wakes the delivery worker with a NOTIFY.
CREATE FUNCTION record_notification_event(p_kind text, p_rollout_id integer, p_wave integer, p_operation_id integer,
    p_machine_id integer, p_account_id integer, p_class_id integer, p_issue_id integer, p_reopened boolean) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM notification_subscriptions s WHERE p_kind = ANY(s.events)) THEN RETURN; END IF;
  INSERT INTO notification_events (kind, rollout_id, wave, operation_id, machine_id, account_id, class_id, issue_id, reopened)
  VALUES (p_kind, p_rollout_id, p_wave, p_operation_id, p_machine_id, p_account_id, p_class_id, p_issue_id, p_reopened);
  PERFORM pg_notify('fleet_notification_events', '');
END $$;
--> statement-breakpoint
CREATE FUNCTION notify_rollout_status() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM record_notification_event(CASE NEW.status WHEN 'Halted' THEN 'RolloutHalted' ELSE 'RolloutCompleted' END,
    NEW.id, NULL, NULL, NULL, NULL, NULL, NULL, false);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER rollouts_notify_status AFTER UPDATE OF status ON rollouts FOR EACH ROW
  WHEN (NEW.status IN ('Halted', 'Completed') AND OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION notify_rollout_status();
--> statement-breakpoint
CREATE FUNCTION notify_rollout_wave_approval() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM record_notification_event('RolloutAwaitingApproval', NEW.rollout_id, NEW.wave, NULL, NULL, NULL, NULL, NULL, false);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER rollout_waves_notify_approval_insert AFTER INSERT ON rollout_waves FOR EACH ROW
  WHEN (NEW.awaiting_approval > 0) EXECUTE FUNCTION notify_rollout_wave_approval();
--> statement-breakpoint
CREATE TRIGGER rollout_waves_notify_approval_update AFTER UPDATE OF awaiting_approval ON rollout_waves FOR EACH ROW
  WHEN (NEW.awaiting_approval > 0 AND OLD.awaiting_approval = 0) EXECUTE FUNCTION notify_rollout_wave_approval();
--> statement-breakpoint
CREATE FUNCTION notify_operation_pending() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM record_notification_event('OperationPendingApproval', NULL, NULL, NEW.id, NEW.machine_id, NEW.account_id, NEW.class_id, NULL, false);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER operations_notify_pending_insert AFTER INSERT ON operations FOR EACH ROW
  WHEN (NEW.pending) EXECUTE FUNCTION notify_operation_pending();
--> statement-breakpoint
CREATE TRIGGER operations_notify_pending_update AFTER UPDATE OF pending ON operations FOR EACH ROW
  WHEN (NEW.pending AND NOT OLD.pending) EXECUTE FUNCTION notify_operation_pending();
--> statement-breakpoint
CREATE FUNCTION notify_machine_panic() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM record_notification_event('MachinePanic', NULL, NULL, NULL, NEW.id, NEW.account_id, NEW.class_id, NULL, false);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER machines_notify_panic AFTER UPDATE OF needs_admin ON machines FOR EACH ROW
  WHEN (NEW.needs_admin AND NOT OLD.needs_admin) EXECUTE FUNCTION notify_machine_panic();
--> statement-breakpoint
CREATE FUNCTION notify_class_standby() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM record_notification_event('ClassStandby', NULL, NULL, NULL, NULL, NULL, NEW.class_id, NULL, false);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER mma_instances_notify_standby AFTER UPDATE OF standby ON mma_instances FOR EACH ROW
  WHEN (NEW.standby AND NOT OLD.standby) EXECUTE FUNCTION notify_class_standby();
--> statement-breakpoint
CREATE FUNCTION notify_issue_opened() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  m record;
BEGIN
  SELECT account_id, class_id INTO m FROM machines WHERE id = NEW.machine_id;
  PERFORM record_notification_event('IssueOpened', NULL, NULL, NULL, NEW.machine_id, m.account_id, m.class_id, NEW.id, TG_OP = 'UPDATE');
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER issues_notify_opened AFTER INSERT ON issues FOR EACH ROW EXECUTE FUNCTION notify_issue_opened();
--> statement-breakpoint
CREATE TRIGGER issues_notify_reopened AFTER UPDATE OF is_resolved ON issues FOR EACH ROW
  WHEN (OLD.is_resolved AND NOT NEW.is_resolved) EXECUTE FUNCTION notify_issue_opened();
