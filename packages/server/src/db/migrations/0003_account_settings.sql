CREATE TABLE "account_settings" (
	"account_id" integer PRIMARY KEY NOT NULL,
	"license_config" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"machine_config" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"backup_config" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"idle_schedules" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"license_version" integer DEFAULT 1 NOT NULL,
	"instance_version" integer DEFAULT 1 NOT NULL,
	"backup_version" integer DEFAULT 1 NOT NULL,
	"idle_version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "account_settings" ADD CONSTRAINT "account_settings_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
INSERT INTO "account_settings" ("account_id", "license_config", "machine_config", "backup_config", "idle_schedules", "license_version", "instance_version", "backup_version", "idle_version")
SELECT "id", "license_config", "machine_config", "backup_config", "idle_schedules", "license_version", "instance_version", "backup_version", "idle_version" FROM "accounts";--> statement-breakpoint
CREATE INDEX "accounts_live_name_idx" ON "accounts" USING btree ("name","id") WHERE deleted_at is null;--> statement-breakpoint
ALTER TABLE "accounts" DROP COLUMN "license_config";--> statement-breakpoint
ALTER TABLE "accounts" DROP COLUMN "machine_config";--> statement-breakpoint
ALTER TABLE "accounts" DROP COLUMN "backup_config";--> statement-breakpoint
ALTER TABLE "accounts" DROP COLUMN "idle_schedules";--> statement-breakpoint
ALTER TABLE "accounts" DROP COLUMN "license_version";--> statement-breakpoint
ALTER TABLE "accounts" DROP COLUMN "instance_version";--> statement-breakpoint
ALTER TABLE "accounts" DROP COLUMN "backup_version";--> statement-breakpoint
ALTER TABLE "accounts" DROP COLUMN "idle_version";