ALTER TABLE "mma_classes" ADD COLUMN "change_windows" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "rollout_targets" ADD COLUMN "previous" jsonb;--> statement-breakpoint
ALTER TABLE "rollout_targets" ADD COLUMN "restore" jsonb;--> statement-breakpoint
ALTER TABLE "rollouts" ADD COLUMN "rollback_of" integer;--> statement-breakpoint
ALTER TABLE "rollouts" ADD CONSTRAINT "rollouts_rollback_of_rollouts_id_fk" FOREIGN KEY ("rollback_of") REFERENCES "public"."rollouts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "rollouts_rollback_of_idx" ON "rollouts" USING btree ("rollback_of");