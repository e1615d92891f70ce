CREATE INDEX "machine_tasks_activity_idx" ON "machine_tasks" USING btree ("activity_id");--> statement-breakpoint
CREATE INDEX "operations_account_idx" ON "operations" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "operations_type_idx" ON "operations" USING btree ("type_name","id");--> statement-breakpoint
CREATE INDEX "operations_status_idx" ON "operations" USING btree ("status","id");--> statement-breakpoint
CREATE INDEX "operations_pending_idx" ON "operations" USING btree ("id") WHERE pending;