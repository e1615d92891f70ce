CREATE TABLE "version_states" (
	"id" serial PRIMARY KEY NOT NULL,
	"machine_id" integer NOT NULL,
	"current" boolean DEFAULT false NOT NULL,
	"timestamp" timestamp with time zone DEFAULT now() NOT NULL,
	"components" jsonb NOT NULL,
	"operation_id" integer
);
--> statement-breakpoint
ALTER TABLE "machines" ADD COLUMN "desired_activity_id" integer;--> statement-breakpoint
ALTER TABLE "version_states" ADD CONSTRAINT "version_states_machine_id_machines_id_fk" FOREIGN KEY ("machine_id") REFERENCES "public"."machines"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "version_states" ADD CONSTRAINT "version_states_operation_id_operations_id_fk" FOREIGN KEY ("operation_id") REFERENCES "public"."operations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "version_states_machine_idx" ON "version_states" USING btree ("machine_id","timestamp" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "version_states_one_current_idx" ON "version_states" USING btree ("machine_id") WHERE current;--> statement-breakpoint
CREATE UNIQUE INDEX "version_states_operation_idx" ON "version_states" USING btree ("operation_id");--> statement-breakpoint
ALTER TABLE "machines" ADD CONSTRAINT "machines_desired_activity_id_audit_activities_id_fk" FOREIGN KEY ("desired_activity_id") REFERENCES "public"."audit_activities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "machines_obsolete_idx" ON "machines" USING btree ("id") WHERE obsolete and deleted_at is null;