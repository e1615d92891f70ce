CREATE INDEX "operations_class_idx" ON "operations" USING btree ("class_id","id");--> statement-breakpoint
CREATE INDEX "operations_queued_idx" ON "operations" USING btree ("queued_at");--> statement-breakpoint
CREATE INDEX "operations_started_idx" ON "operations" USING btree ("started_at","id");--> statement-breakpoint
CREATE INDEX "operations_finished_idx" ON "operations" USING btree ("finished_at","id");