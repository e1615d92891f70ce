CREATE TABLE "engine_checks" (
	"name" text PRIMARY KEY NOT NULL,
	"last_run_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "issue_logs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"issue_id" integer NOT NULL,
	"timestamp" timestamp with time zone NOT NULL,
	"content" text NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"size" integer NOT NULL,
	"complete" boolean NOT NULL
);
--> statement-breakpoint
CREATE TABLE "issues" (
	"id" serial PRIMARY KEY NOT NULL,
	"machine_id" integer NOT NULL,
	"source" text NOT NULL,
	"fingerprint" text NOT NULL,
	"description" text NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"count" integer DEFAULT 1 NOT NULL,
	"first_occurrence_time" timestamp with time zone NOT NULL,
	"last_occurrence_time" timestamp with time zone NOT NULL,
	"is_resolved" boolean DEFAULT false NOT NULL,
	"resolved_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "issue_logs" ADD CONSTRAINT "issue_logs_issue_id_issues_id_fk" FOREIGN KEY ("issue_id") REFERENCES "public"."issues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issues" ADD CONSTRAINT "issues_machine_id_machines_id_fk" FOREIGN KEY ("machine_id") REFERENCES "public"."machines"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "issue_logs_issue_idx" ON "issue_logs" USING btree ("issue_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "issues_fingerprint_idx" ON "issues" USING btree ("machine_id","source","fingerprint");--> statement-breakpoint
CREATE INDEX "issues_last_idx" ON "issues" USING btree ("last_occurrence_time" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "issues_machine_last_idx" ON "issues" USING btree ("machine_id","last_occurrence_time" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "issues_tags_idx" ON "issues" USING gin ("tags");