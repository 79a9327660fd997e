CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp (3) with time zone NOT NULL,
	"actor_id" integer,
	"actor_role" text NOT NULL,
	"kind" text NOT NULL,
	"facility_id" integer,
	"subject_id" integer,
	"data" jsonb NOT NULL,
	"personal" jsonb NOT NULL,
	"prev_hash" text NOT NULL,
	"hash" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "archived_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "archived_by" integer;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "erased_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "audit_log_facility_idx" ON "audit_log" USING btree ("facility_id","id");--> statement-breakpoint
CREATE INDEX "audit_log_subject_idx" ON "audit_log" USING btree ("subject_id");--> statement-breakpoint
CREATE INDEX "audit_log_actor_idx" ON "audit_log" USING btree ("actor_id");--> statement-breakpoint
CREATE INDEX "audit_log_kind_idx" ON "audit_log" USING btree ("kind","id");--> statement-breakpoint
CREATE INDEX "users_archived_idx" ON "users" USING btree ("archived_at") WHERE "users"."archived_at" is not null;--> statement-breakpoint
-- The audit trail is append-only: an entry's hashed columns never change and no entry is
-- deleted (erasure empties `personal`, which the hash leaves out). The hash chain finds what
-- gets past this (a superuser of the database can drop the trigger); the trigger stops the
-- application and an operator's slip.
CREATE FUNCTION "audit_log_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'audit_log entries are never deleted' USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF (NEW."id", NEW."at", NEW."actor_id", NEW."actor_role", NEW."kind", NEW."facility_id", NEW."subject_id", NEW."data", NEW."prev_hash", NEW."hash")
     IS DISTINCT FROM (OLD."id", OLD."at", OLD."actor_id", OLD."actor_role", OLD."kind", OLD."facility_id", OLD."subject_id", OLD."data", OLD."prev_hash", OLD."hash") THEN
    RAISE EXCEPTION 'audit_log entries change only in their personal part' USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "audit_log_append_only" BEFORE UPDATE OR DELETE ON "audit_log"
  FOR EACH ROW EXECUTE FUNCTION "audit_log_append_only"();
