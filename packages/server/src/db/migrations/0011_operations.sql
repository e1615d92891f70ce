CREATE TABLE "operation_types" (
	"id" serial PRIMARY KEY NOT NULL,
	"machine_class_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text NOT NULL,
	"can_be_manual" boolean DEFAULT true NOT NULL,
	"timeout_seconds" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "operations" (
	"id" serial PRIMARY KEY NOT NULL,
	"machine_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"class_id" integer NOT NULL,
	"type_id" integer NOT NULL,
	"type_name" text NOT NULL,
	"user_name" text NOT NULL,
	"activity_id" integer,
	"queued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"not_before" timestamp with time zone,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"status" text,
	"pending" boolean DEFAULT false NOT NULL,
	"decision" text,
	"decided_by" text,
	"params" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"timeout_seconds" integer NOT NULL,
	"fail_counter" integer DEFAULT 0 NOT NULL,
	"operation_mode" integer NOT NULL,
	"output" text DEFAULT '' NOT NULL,
	"deployer_log" text DEFAULT '' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"heartbeat_at" timestamp with time zone,
	"worker" text
);
--> statement-breakpoint
ALTER TABLE "machine_tasks" ADD COLUMN "activity_id" integer;--> statement-breakpoint
ALTER TABLE "operation_types" ADD CONSTRAINT "operation_types_machine_class_id_mma_classes_id_fk" FOREIGN KEY ("machine_class_id") REFERENCES "public"."mma_classes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operations" ADD CONSTRAINT "operations_machine_id_machines_id_fk" FOREIGN KEY ("machine_id") REFERENCES "public"."machines"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operations" ADD CONSTRAINT "operations_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operations" ADD CONSTRAINT "operations_type_id_operation_types_id_fk" FOREIGN KEY ("type_id") REFERENCES "public"."operation_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operations" ADD CONSTRAINT "operations_activity_id_audit_activities_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."audit_activities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "operation_types_class_name_idx" ON "operation_types" USING btree ("machine_class_id","name");--> statement-breakpoint
CREATE INDEX "operations_machine_idx" ON "operations" USING btree ("machine_id","id");--> statement-breakpoint
CREATE INDEX "operations_unfinished_idx" ON "operations" USING btree ("machine_id") WHERE finished_at is null;--> statement-breakpoint
CREATE UNIQUE INDEX "operations_one_running_idx" ON "operations" USING btree ("machine_id") WHERE status = 'RUNNING';--> statement-breakpoint
CREATE INDEX "operations_activity_idx" ON "operations" USING btree ("activity_id");--> statement-breakpoint
ALTER TABLE "machine_tasks" ADD CONSTRAINT "machine_tasks_activity_id_audit_activities_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."audit_activities"("id") ON DELETE no action ON UPDATE no action;