CREATE TABLE "account_machine_status" (
	"account_id" integer PRIMARY KEY NOT NULL,
	"machines" integer DEFAULT 0 NOT NULL,
	"needs_admin" integer DEFAULT 0 NOT NULL,
	"unmanaged" integer DEFAULT 0 NOT NULL,
	"manual_maintenance" integer DEFAULT 0 NOT NULL,
	"stopped" integer DEFAULT 0 NOT NULL,
	"turbo" integer DEFAULT 0 NOT NULL,
	"obsolete" integer DEFAULT 0 NOT NULL,
	"idle" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "account_machine_status" ADD CONSTRAINT "account_machine_status_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;