-- One-time sign-in codes live a minute; the ones of a server upgraded meanwhile are dropped (sign in again) rather than left unbound to a browser.
DELETE FROM "sso_handoffs";--> statement-breakpoint
ALTER TABLE "sso_handoffs" ADD COLUMN "browser_hash" text NOT NULL;