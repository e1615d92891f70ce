CREATE TABLE "rollout_targets" (
	"rollout_id" integer NOT NULL,
	"target_id" integer NOT NULL,
	"position" integer NOT NULL,
	"name" text NOT NULL,
	"wave" integer NOT NULL,
	"state" text NOT NULL,
	"detail" text,
	"activity_id" integer,
	"machine_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rollout_targets_rollout_id_target_id_pk" PRIMARY KEY("rollout_id","target_id")
);
--> statement-breakpoint
CREATE TABLE "rollouts" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"plan" jsonb NOT NULL,
	"config" jsonb NOT NULL,
	"created_by" text NOT NULL,
	"principal" jsonb NOT NULL,
	"customer_production" boolean DEFAULT false NOT NULL,
	"activity_id" integer,
	"current_wave" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "updater_selections" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"query" text,
	"ids" integer[] DEFAULT '{}' NOT NULL,
	"owner_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "machines" ADD COLUMN "version_overrides" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "rollout_targets" ADD CONSTRAINT "rollout_targets_rollout_id_rollouts_id_fk" FOREIGN KEY ("rollout_id") REFERENCES "public"."rollouts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rollout_targets" ADD CONSTRAINT "rollout_targets_activity_id_audit_activities_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."audit_activities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rollouts" ADD CONSTRAINT "rollouts_activity_id_audit_activities_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."audit_activities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "updater_selections" ADD CONSTRAINT "updater_selections_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "rollout_targets_wave_idx" ON "rollout_targets" USING btree ("rollout_id","wave","state");--> statement-breakpoint
CREATE INDEX "rollouts_running_idx" ON "rollouts" USING btree ("id") WHERE status = 'Running';--> statement-breakpoint
CREATE INDEX "updater_selections_created_idx" ON "updater_selections" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "machines_overrides_idx" ON "machines" USING btree ("account_id") WHERE version_overrides <> '{}'::jsonb and deleted_at is null;