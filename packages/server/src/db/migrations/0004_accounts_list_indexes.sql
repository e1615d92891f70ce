DROP INDEX "accounts_live_name_idx";--> statement-breakpoint
CREATE INDEX "accounts_live_class_idx" ON "accounts" USING btree ("class_id","id") WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "accounts_live_name_idx" ON "accounts" USING btree ("name","id","class_id") WHERE deleted_at is null;