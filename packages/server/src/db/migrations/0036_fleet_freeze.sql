CREATE TABLE "fleet_freeze" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"frozen" boolean DEFAULT false NOT NULL,
	"reason" text,
	"frozen_by" text,
	"frozen_at" timestamp with time zone,
	"released_by" text,
	"released_at" timestamp with time zone,
	CONSTRAINT "fleet_freeze_one_row" CHECK ("fleet_freeze"."id" = 1)
);
