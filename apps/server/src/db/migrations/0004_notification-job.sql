CREATE TABLE "certificate_notice_summaries" (
	"facility_id" integer NOT NULL,
	"stage" integer NOT NULL,
	"day" date NOT NULL,
	"certificate_count" integer NOT NULL,
	"first_expiry" timestamp with time zone NOT NULL,
	CONSTRAINT "certificate_notice_summaries_pk" PRIMARY KEY("facility_id","stage","day")
);
--> statement-breakpoint
CREATE TABLE "certificate_notices" (
	"certificate_id" integer NOT NULL,
	"stage" integer NOT NULL,
	"notified" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "certificate_notices_pk" PRIMARY KEY("certificate_id","stage")
);
--> statement-breakpoint
ALTER TABLE "certificate_notice_summaries" ADD CONSTRAINT "certificate_notice_summaries_facility_fk" FOREIGN KEY ("facility_id") REFERENCES "public"."facilities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificate_notices" ADD CONSTRAINT "certificate_notices_certificate_id_certificates_id_fk" FOREIGN KEY ("certificate_id") REFERENCES "public"."certificates"("id") ON DELETE cascade ON UPDATE no action;