CREATE TABLE "cloud_images" (
	"id" serial PRIMARY KEY NOT NULL,
	"image_id" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"region" text NOT NULL,
	"source_cloud_id" text,
	"status" text NOT NULL,
	"next_status" text,
	"settles_at" timestamp with time zone,
	"client_token" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cloud_images_image_id_unique" UNIQUE("image_id"),
	CONSTRAINT "cloud_images_client_token_unique" UNIQUE("client_token")
);
--> statement-breakpoint
CREATE TABLE "machine_credentials" (
	"machine_id" integer PRIMARY KEY NOT NULL,
	"rdp_password_enc" text NOT NULL,
	"ssh_private_key_enc" text NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notification_messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"machine_id" integer NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"priority" text NOT NULL,
	"sent_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"delivered_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "socket_io_attachments" (
	"id" bigserial NOT NULL,
	"created_at" timestamp with time zone DEFAULT now(),
	"payload" "bytea",
	CONSTRAINT "socket_io_attachments_id_unique" UNIQUE("id")
);
--> statement-breakpoint
ALTER TABLE "cloud_instances" ADD COLUMN "next_status" text;--> statement-breakpoint
ALTER TABLE "cloud_instances" ADD COLUMN "settles_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "cloud_instances" ADD COLUMN "client_token" text;--> statement-breakpoint
ALTER TABLE "machine_tasks" ADD COLUMN "params" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "machine_tasks" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "machine_tasks" ADD COLUMN "heartbeat_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "machine_tasks" ADD COLUMN "worker" text;--> statement-breakpoint
ALTER TABLE "machine_credentials" ADD CONSTRAINT "machine_credentials_machine_id_machines_id_fk" FOREIGN KEY ("machine_id") REFERENCES "public"."machines"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_messages" ADD CONSTRAINT "notification_messages_machine_id_machines_id_fk" FOREIGN KEY ("machine_id") REFERENCES "public"."machines"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notification_messages_pending_idx" ON "notification_messages" USING btree ("created_at") WHERE delivered_at is null;--> statement-breakpoint
CREATE UNIQUE INDEX "machine_tasks_one_running_idx" ON "machine_tasks" USING btree ("machine_id") WHERE status = 'Running';--> statement-breakpoint
ALTER TABLE "cloud_instances" ADD CONSTRAINT "cloud_instances_client_token_unique" UNIQUE("client_token");