CREATE TABLE "schedule_due" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"kind" text NOT NULL,
	"slot" text DEFAULT '' NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"params" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"done_at" timestamp with time zone,
	"last_run_at" timestamp with time zone,
	"last_error" text
);
--> statement-breakpoint
CREATE TABLE "schedule_plans" (
	"account_id" integer PRIMARY KEY NOT NULL,
	"live" boolean NOT NULL,
	"backup_version" integer NOT NULL,
	"idle_version" integer NOT NULL,
	"instance_version" integer NOT NULL,
	"planned_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "schedule_due" ADD CONSTRAINT "schedule_due_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_plans" ADD CONSTRAINT "schedule_plans_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "schedule_due_account_kind_slot_idx" ON "schedule_due" USING btree ("account_id","kind","slot");--> statement-breakpoint
CREATE INDEX "schedule_due_pending_idx" ON "schedule_due" USING btree ("due_at") WHERE done_at is null;