ALTER TABLE "questions" DROP CONSTRAINT "questions_questionnaire_key_uq";--> statement-breakpoint
ALTER TABLE "questionnaires" ADD COLUMN "origin" text DEFAULT 'package' NOT NULL;--> statement-breakpoint
ALTER TABLE "questionnaires" ADD COLUMN "facility_id" integer;--> statement-breakpoint
ALTER TABLE "questionnaires" ADD COLUMN "status" text DEFAULT 'published' NOT NULL;--> statement-breakpoint
ALTER TABLE "questionnaires" ADD COLUMN "published_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "questions" ADD COLUMN "origin" text DEFAULT 'package' NOT NULL;--> statement-breakpoint
ALTER TABLE "questions" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "questions" ADD COLUMN "superseded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "topics" ADD COLUMN "origin" text DEFAULT 'package' NOT NULL;--> statement-breakpoint
ALTER TABLE "trainings" ADD COLUMN "origin" text DEFAULT 'package' NOT NULL;--> statement-breakpoint
ALTER TABLE "questionnaires" ADD CONSTRAINT "questionnaires_facility_id_facilities_id_fk" FOREIGN KEY ("facility_id") REFERENCES "public"."facilities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "questionnaires_facility_idx" ON "questionnaires" USING btree ("facility_id");--> statement-breakpoint
CREATE UNIQUE INDEX "questions_current_uq" ON "questions" USING btree ("questionnaire_id","key") WHERE "questions"."superseded_at" is null;--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_questionnaire_key_version_uq" UNIQUE("questionnaire_id","key","version");