CREATE TABLE "history_cursors" (
	"name" text PRIMARY KEY NOT NULL,
	"through" timestamp with time zone NOT NULL,
	"last_id" integer NOT NULL
);
