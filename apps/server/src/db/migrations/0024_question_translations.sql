CREATE TABLE "question_translations" (
	"question_id" integer NOT NULL,
	"lang" text NOT NULL,
	"text" text NOT NULL,
	"answers" jsonb NOT NULL,
	"explanation" text NOT NULL,
	"hint" text,
	"status" text NOT NULL,
	"source_hash" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer,
	CONSTRAINT "question_translations_question_id_lang_pk" PRIMARY KEY("question_id","lang")
);
--> statement-breakpoint
ALTER TABLE "question_translations" ADD CONSTRAINT "question_translations_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_translations" ADD CONSTRAINT "question_translations_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- A translation is learning content: writing one gives the content a new generation at commit and
-- tells every server's content cache, as the other content tables do (migration 0016).
CREATE CONSTRAINT TRIGGER "question_translations_content_written" AFTER INSERT OR UPDATE OR DELETE ON "question_translations"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN ("cc_content_written"())
  EXECUTE FUNCTION "cc_content_generation"();--> statement-breakpoint
CREATE TRIGGER "question_translations_content_truncated" AFTER TRUNCATE ON "question_translations"
  FOR EACH STATEMENT EXECUTE FUNCTION "cc_content_generation"();
