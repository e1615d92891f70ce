CREATE TABLE "probe_cursor" (
	"id" smallint PRIMARY KEY NOT NULL,
	"through" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "probe_hourly" (
	"machine_id" integer NOT NULL,
	"kind" smallint NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"n" integer NOT NULL,
	"ok" integer NOT NULL,
	"lat_sum" double precision NOT NULL,
	CONSTRAINT "probe_hourly_machine_id_kind_hour_pk" PRIMARY KEY("machine_id","kind","hour")
);
--> statement-breakpoint
CREATE TABLE "probe_rollups" (
	"hour" timestamp with time zone PRIMARY KEY NOT NULL,
	"samples" integer NOT NULL,
	"rolled_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "request_statistics" (
	"machine_id" integer NOT NULL,
	"kind" smallint NOT NULL,
	"url" text NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	"last_latency_ms" double precision,
	"last_ok" boolean NOT NULL,
	"failing_since" timestamp with time zone,
	"acc_hour" timestamp with time zone NOT NULL,
	"acc_n" integer NOT NULL,
	"acc_ok" integer NOT NULL,
	"acc_lat_sum" double precision NOT NULL,
	"prev_hour" timestamp with time zone,
	"prev_n" integer DEFAULT 0 NOT NULL,
	"prev_ok" integer DEFAULT 0 NOT NULL,
	"prev_lat_sum" double precision DEFAULT 0 NOT NULL,
	CONSTRAINT "request_statistics_machine_id_kind_pk" PRIMARY KEY("machine_id","kind")
);
--> statement-breakpoint
ALTER TABLE "request_statistics" ADD CONSTRAINT "request_statistics_machine_id_machines_id_fk" FOREIGN KEY ("machine_id") REFERENCES "public"."machines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "probe_hourly_hour_idx" ON "probe_hourly" USING btree ("hour");--> statement-breakpoint
CREATE INDEX "machines_live_idx" ON "machines" USING btree ("id","account_id","class_id") WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "machines_probe_phase_idx" ON "machines" USING btree (((id::float8 * 0.6180339887498949) - floor(id::float8 * 0.6180339887498949))) WHERE deleted_at is null;--> statement-breakpoint
-- hand-written
-- Raw probe samples (DESIGN §14), one row per probe, in hourly partitions that the probe
-- worker creates ahead and drops after a day (engine/probes/probes.repository.ts): a day of
-- samples at 100,000 machines is about 140 million rows, which a DELETE could not keep up with.
-- No index: the hourly rollup reads a whole partition; the statistics read the rollups and
-- request_statistics. kind: 0 launcher, 1 site master; latency_ms null when the probe failed.
CREATE TABLE "probe_samples" (
	"at" timestamp with time zone NOT NULL,
	"machine_id" integer NOT NULL,
	"latency_ms" real,
	"kind" smallint NOT NULL,
	"ok" boolean NOT NULL
) PARTITION BY RANGE ("at");
--> statement-breakpoint
-- Updated once a minute per URL: room on each page keeps the updates HOT (no index change).
ALTER TABLE "request_statistics" SET (fillfactor = 50);
--> statement-breakpoint
INSERT INTO "probe_cursor" ("id", "through") VALUES (1, now());
