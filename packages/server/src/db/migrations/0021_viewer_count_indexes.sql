DROP INDEX "version_states_current_idx";--> statement-breakpoint
DROP INDEX "version_states_historical_idx";--> statement-breakpoint
CREATE INDEX "software_commits_hash_idx" ON "software_commits" USING btree ("software","short_hash");--> statement-breakpoint
CREATE INDEX "version_states_current_idx" ON "version_states" USING btree ("timestamp" DESC NULLS LAST,"id" DESC NULLS LAST,"machine_id") WHERE current;--> statement-breakpoint
CREATE INDEX "version_states_historical_idx" ON "version_states" USING btree ("timestamp" DESC NULLS LAST,"id" DESC NULLS LAST,"machine_id") WHERE not current;