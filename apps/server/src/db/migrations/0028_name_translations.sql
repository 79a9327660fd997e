CREATE TABLE "name_translations" (
	"kind" text NOT NULL,
	"item_id" integer NOT NULL,
	"lang" text NOT NULL,
	"name" text NOT NULL,
	"status" text NOT NULL,
	"source_hash" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer,
	CONSTRAINT "name_translations_kind_item_id_lang_pk" PRIMARY KEY("kind","item_id","lang"),
	CONSTRAINT "name_translations_kind_ck" CHECK ("name_translations"."kind" in ('topic', 'training', 'questionnaire'))
);
--> statement-breakpoint
ALTER TABLE "name_translations" ADD CONSTRAINT "name_translations_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- A translated name is learning content: writing one gives the content a new generation at commit
-- and tells every server's content cache, as the other content tables do (migration 0016).
CREATE CONSTRAINT TRIGGER "name_translations_content_written" AFTER INSERT OR UPDATE OR DELETE ON "name_translations"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN ("cc_content_written"())
  EXECUTE FUNCTION "cc_content_generation"();--> statement-breakpoint
CREATE TRIGGER "name_translations_content_truncated" AFTER TRUNCATE ON "name_translations"
  FOR EACH STATEMENT EXECUTE FUNCTION "cc_content_generation"();
