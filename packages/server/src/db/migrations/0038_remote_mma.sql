CREATE TABLE "mma_agents" (
	"id" serial PRIMARY KEY NOT NULL,
	"class_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"token_hint" text NOT NULL,
	"host" text NOT NULL,
	"version" text NOT NULL,
	"registered_by" text NOT NULL,
	"registered_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone,
	"last_address" text,
	"revoked_at" timestamp with time zone,
	"revoked_by" text,
	CONSTRAINT "mma_agents_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "mma_registration_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"class_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"agent_id" integer,
	CONSTRAINT "mma_registration_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "mma_instances" ADD COLUMN "mode" text DEFAULT 'simulated' NOT NULL;--> statement-breakpoint
ALTER TABLE "mma_agents" ADD CONSTRAINT "mma_agents_class_id_mma_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."mma_classes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mma_registration_tokens" ADD CONSTRAINT "mma_registration_tokens_class_id_mma_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."mma_classes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mma_agents_live_class_idx" ON "mma_agents" USING btree ("class_id","last_seen_at") WHERE revoked_at is null;--> statement-breakpoint
ALTER TABLE "mma_instances" ADD CONSTRAINT "mma_instances_mode_check" CHECK ("mma_instances"."mode" in ('simulated', 'remote'));