CREATE TABLE "rollout_wave_bakes" (
	"rollout_id" integer NOT NULL,
	"wave" integer NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"result" text,
	"unhealthy" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "rollout_wave_bakes_rollout_id_wave_pk" PRIMARY KEY("rollout_id","wave")
);
--> statement-breakpoint
ALTER TABLE "rollout_wave_bakes" ADD CONSTRAINT "rollout_wave_bakes_rollout_id_rollouts_id_fk" FOREIGN KEY ("rollout_id") REFERENCES "public"."rollouts"("id") ON DELETE cascade ON UPDATE no action;