CREATE TABLE "account_search_prefixes" (
	"prefix" text NOT NULL,
	"account_id" integer NOT NULL,
	"class_id" integer NOT NULL,
	"rank" real NOT NULL,
	"name" text NOT NULL,
	CONSTRAINT "account_search_prefixes_account_id_prefix_pk" PRIMARY KEY("account_id","prefix")
);
--> statement-breakpoint
CREATE INDEX "account_search_prefixes_rank_idx" ON "account_search_prefixes" USING btree ("prefix","rank" DESC NULLS LAST,"name","account_id","class_id");--> statement-breakpoint
-- The prefixes of an account_search row: every prefix of 1 to 6 ASCII letters and
-- digits of each lexeme (what a one-word search can be, see toPrefixTsQuery), each
-- with ts_rank of its prefix query: the value a live ranking computes.
CREATE OR REPLACE FUNCTION account_search_prefix_rows(p_account_id integer, p_class_id integer, p_name text, p_search tsvector)
  RETURNS TABLE (prefix text, account_id integer, class_id integer, rank real, name text)
  LANGUAGE sql STABLE AS $$
  SELECT q.prefix, p_account_id, p_class_id, ts_rank('{0.1, 0.2, 0.5, 1.0}', p_search, to_tsquery('simple', q.prefix || ':*')), p_name
  FROM (
    SELECT DISTINCT left(w, l) AS prefix
    FROM unnest(tsvector_to_array(p_search)) AS w, generate_series(1, least(length(w), 6)) AS l
  ) q
  WHERE q.prefix ~ '^[a-z0-9]+$'
$$;
--> statement-breakpoint
-- account_search rows changed (inserted, updated by the accounts trigger's upsert,
-- deleted): their prefix rows are written again, in the same transaction.
CREATE OR REPLACE FUNCTION account_search_prefixes_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM account_search_prefixes p USING changed_rows c WHERE p.account_id = c.account_id;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO account_search_prefixes (prefix, account_id, class_id, rank, name)
      SELECT r.* FROM changed_rows c, account_search_prefix_rows(c.account_id, c.class_id, c.name, c.search) r;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER account_search_prefixes_inserted AFTER INSERT ON account_search
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION account_search_prefixes_changed();
--> statement-breakpoint
CREATE TRIGGER account_search_prefixes_updated AFTER UPDATE ON account_search
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION account_search_prefixes_changed();
--> statement-breakpoint
CREATE TRIGGER account_search_prefixes_deleted AFTER DELETE ON account_search
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION account_search_prefixes_changed();
--> statement-breakpoint
INSERT INTO account_search_prefixes (prefix, account_id, class_id, rank, name)
  SELECT r.* FROM account_search s, account_search_prefix_rows(s.account_id, s.class_id, s.name, s.search) r;
--> statement-breakpoint
ANALYZE account_search_prefixes;
