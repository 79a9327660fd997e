CREATE TABLE "help_replies" (
	"id" serial PRIMARY KEY NOT NULL,
	"question_id" integer NOT NULL,
	"author_id" integer,
	"author_name" text NOT NULL,
	"text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "question_content_flags" (
	"question_id" integer PRIMARY KEY NOT NULL,
	"note" text,
	"flagged_by" integer,
	"flagged_by_name" text NOT NULL,
	"flagged_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tutorial_pages" (
	"id" serial PRIMARY KEY NOT NULL,
	"audience" text NOT NULL,
	"key" text NOT NULL,
	"language" text NOT NULL,
	"position" integer NOT NULL,
	"title" text NOT NULL,
	"html" text NOT NULL,
	"image" text,
	CONSTRAINT "tutorial_pages_uq" UNIQUE("audience","key","language")
);
--> statement-breakpoint
ALTER TABLE "help_requests" ADD COLUMN "handled_by" integer;--> statement-breakpoint
ALTER TABLE "help_requests" ADD COLUMN "reply_id" integer;--> statement-breakpoint
ALTER TABLE "help_replies" ADD CONSTRAINT "help_replies_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "help_replies" ADD CONSTRAINT "help_replies_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_content_flags" ADD CONSTRAINT "question_content_flags_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_content_flags" ADD CONSTRAINT "question_content_flags_flagged_by_users_id_fk" FOREIGN KEY ("flagged_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "help_replies_question_idx" ON "help_replies" USING btree ("question_id");--> statement-breakpoint
ALTER TABLE "help_requests" ADD CONSTRAINT "help_requests_handled_by_users_id_fk" FOREIGN KEY ("handled_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "help_requests" ADD CONSTRAINT "help_requests_reply_id_help_replies_id_fk" FOREIGN KEY ("reply_id") REFERENCES "public"."help_replies"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- One open request per learner and question (decision 19): earlier duplicates merge into the first.
DELETE FROM "help_requests" a USING "help_requests" b WHERE a."handled_at" IS NULL AND b."handled_at" IS NULL AND a."user_id" = b."user_id" AND a."question_id" = b."question_id" AND a."id" > b."id";--> statement-breakpoint
CREATE UNIQUE INDEX "help_requests_open_uq" ON "help_requests" USING btree ("user_id","question_id") WHERE "help_requests"."handled_at" is null;--> statement-breakpoint
CREATE INDEX "help_requests_open_facility_idx" ON "help_requests" USING btree ("facility_id") WHERE "help_requests"."handled_at" is null;