CREATE TABLE "partner_certificates" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"training_id" integer NOT NULL,
	"course_id" text NOT NULL,
	"course_name" text NOT NULL,
	"partner_certificate_id" text NOT NULL,
	"filename" text NOT NULL,
	"content" "bytea" NOT NULL,
	"completed_at" timestamp with time zone NOT NULL,
	"certificate_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "partner_certificates_once_uq" UNIQUE("user_id","partner_certificate_id")
);
--> statement-breakpoint
ALTER TABLE "partner_certificates" ADD CONSTRAINT "partner_certificates_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_certificates" ADD CONSTRAINT "partner_certificates_training_id_trainings_id_fk" FOREIGN KEY ("training_id") REFERENCES "public"."trainings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_certificates" ADD CONSTRAINT "partner_certificates_certificate_id_certificates_id_fk" FOREIGN KEY ("certificate_id") REFERENCES "public"."certificates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "partner_certificates_user_training_idx" ON "partner_certificates" USING btree ("user_id","training_id");--> statement-breakpoint
CREATE INDEX "partner_certificates_certificate_idx" ON "partner_certificates" USING btree ("certificate_id");