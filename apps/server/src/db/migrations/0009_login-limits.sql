CREATE TABLE "rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"hits" integer NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"blocked_until" timestamp with time zone
);
--> statement-breakpoint
DROP INDEX "users_login_lower_uq";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "login_key" text;--> statement-breakpoint
-- ASCII lower case whatever the database's locale; logins with other characters get their key
-- from JavaScript's loginKey when the database is opened (db/client.ts syncLoginKeys).
UPDATE "users" SET "login_key" = translate(btrim("login"), 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz');--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "login_key" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "rate_limits_window_start_idx" ON "rate_limits" USING btree ("window_start");--> statement-breakpoint
CREATE UNIQUE INDEX "users_login_key_uq" ON "users" USING btree ("login_key");
