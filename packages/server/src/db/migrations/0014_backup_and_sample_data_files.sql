CREATE TABLE "backup_files" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"machine_id" integer NOT NULL,
	"software_name" text NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"category" text NOT NULL,
	"size" bigint NOT NULL,
	"storage_class" text DEFAULT 'Standard' NOT NULL,
	"object_key" text NOT NULL,
	"operation_id" integer,
	CONSTRAINT "backup_files_name_unique" UNIQUE("name"),
	CONSTRAINT "backup_files_object_key_unique" UNIQUE("object_key")
);
--> statement-breakpoint
CREATE TABLE "sample_data_files" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"size" bigint NOT NULL,
	"source_machine_id" integer,
	"published_by" text NOT NULL,
	"object_key" text NOT NULL,
	"operation_id" integer,
	CONSTRAINT "sample_data_files_name_unique" UNIQUE("name"),
	CONSTRAINT "sample_data_files_object_key_unique" UNIQUE("object_key"),
	CONSTRAINT "sample_data_files_operation_id_unique" UNIQUE("operation_id")
);
--> statement-breakpoint
ALTER TABLE "backup_files" ADD CONSTRAINT "backup_files_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "backup_files" ADD CONSTRAINT "backup_files_machine_id_machines_id_fk" FOREIGN KEY ("machine_id") REFERENCES "public"."machines"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "backup_files" ADD CONSTRAINT "backup_files_operation_id_operations_id_fk" FOREIGN KEY ("operation_id") REFERENCES "public"."operations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sample_data_files" ADD CONSTRAINT "sample_data_files_source_machine_id_machines_id_fk" FOREIGN KEY ("source_machine_id") REFERENCES "public"."machines"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sample_data_files" ADD CONSTRAINT "sample_data_files_operation_id_operations_id_fk" FOREIGN KEY ("operation_id") REFERENCES "public"."operations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "backup_files_account_idx" ON "backup_files" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "backup_files_machine_idx" ON "backup_files" USING btree ("machine_id","software_name","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "backup_files_operation_software_idx" ON "backup_files" USING btree ("operation_id","software_name");