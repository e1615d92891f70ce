DROP INDEX "cloud_instances_machine_idx";--> statement-breakpoint
CREATE INDEX "cloud_instances_machine_id_idx" ON "cloud_instances" USING btree ("machine_id","id");--> statement-breakpoint
CREATE INDEX "machines_list_order_idx" ON "machines" USING btree ("account_id","is_launcher" DESC NULLS LAST,"name","id") WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "version_states_current_idx" ON "version_states" USING btree ("timestamp" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE current;--> statement-breakpoint
CREATE INDEX "version_states_historical_idx" ON "version_states" USING btree ("timestamp" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE not current;