CREATE INDEX "issues_first_idx" ON "issues" USING btree ("first_occurrence_time" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "issues_count_idx" ON "issues" USING btree ("count" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "request_statistics_failing_idx" ON "request_statistics" USING btree ("machine_id","kind") WHERE not last_ok;