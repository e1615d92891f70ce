-- The search vectors of live accounts in a narrow table of their own (with name
-- and class, what the ranked list orders and filters by), kept by statement-level
-- triggers on accounts. A search ranks and counts every matching account; read out
-- of the wide accounts row that cost about five times as much (issue 9: a short
-- prefix such as `a` matches half the scale fleet). The accounts GIN index goes:
-- every search now reads account_search.
CREATE TABLE "account_search" (
	"account_id" integer PRIMARY KEY NOT NULL,
	"class_id" integer NOT NULL,
	"name" text NOT NULL,
	"search" "tsvector" NOT NULL
);
--> statement-breakpoint
DROP INDEX "accounts_search_idx";--> statement-breakpoint
ALTER TABLE "account_search" ADD CONSTRAINT "account_search_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_search_idx" ON "account_search" USING gin ("search");--> statement-breakpoint
INSERT INTO "account_search" ("account_id", "class_id", "name", "search")
  SELECT "id", "class_id", "name", "search" FROM "accounts" WHERE "deleted_at" IS NULL;--> statement-breakpoint
-- A live account has its row, a (soft) deleted one none; a change of what the vector
-- is made of (name, URL name, customer, creator) or of the class follows. An update
-- that changes none of them writes nothing. (Transition tables rule out an
-- `UPDATE OF column` list.)
CREATE OR REPLACE FUNCTION accounts_search_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM account_search s USING new_rows n WHERE s.account_id = n.id AND n.deleted_at IS NOT NULL;
  INSERT INTO account_search AS s (account_id, class_id, name, search)
    SELECT id, class_id, name, search FROM new_rows WHERE deleted_at IS NULL
    ON CONFLICT (account_id) DO UPDATE SET class_id = excluded.class_id, name = excluded.name, search = excluded.search
    WHERE (s.class_id, s.name, s.search) IS DISTINCT FROM (excluded.class_id, excluded.name, excluded.search);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER accounts_search_inserted AFTER INSERT ON accounts
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION accounts_search_changed();
--> statement-breakpoint
CREATE TRIGGER accounts_search_updated AFTER UPDATE ON accounts
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION accounts_search_changed();
--> statement-breakpoint
-- Statistics for the planner at once: the table is filled above, and until
-- autovacuum analyses it, a search planned without them was twice as slow.
ANALYZE account_search;
