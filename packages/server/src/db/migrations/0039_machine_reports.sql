CREATE TABLE "machine_reports" (
	"machine_id" integer PRIMARY KEY NOT NULL,
	"agent_id" integer NOT NULL,
	"reported_at" timestamp with time zone DEFAULT now() NOT NULL,
	"site_server_status" jsonb,
	"installed_versions" jsonb
);
--> statement-breakpoint
ALTER TABLE "machine_reports" ADD CONSTRAINT "machine_reports_machine_id_machines_id_fk" FOREIGN KEY ("machine_id") REFERENCES "public"."machines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "machine_reports" ADD CONSTRAINT "machine_reports_agent_id_mma_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."mma_agents"("id") ON DELETE no action ON UPDATE no action;