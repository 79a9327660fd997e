CREATE TABLE "certificate_credentials" (
	"certificate_id" integer PRIMARY KEY NOT NULL,
	"status_list_id" integer NOT NULL,
	"status_index" integer NOT NULL,
	"key_id" integer NOT NULL,
	"valid_until" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"document" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "certificate_credentials_status_uq" UNIQUE("status_list_id","status_index")
);
--> statement-breakpoint
CREATE TABLE "credential_keys" (
	"id" serial PRIMARY KEY NOT NULL,
	"public_key_multibase" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "credential_keys_public_key_multibase_unique" UNIQUE("public_key_multibase")
);
--> statement-breakpoint
CREATE TABLE "credential_status_lists" (
	"id" serial PRIMARY KEY NOT NULL,
	"size" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"document" text,
	"bits_hash" text
);
--> statement-breakpoint
ALTER TABLE "certificate_credentials" ADD CONSTRAINT "certificate_credentials_certificate_id_certificates_id_fk" FOREIGN KEY ("certificate_id") REFERENCES "public"."certificates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificate_credentials" ADD CONSTRAINT "certificate_credentials_status_list_id_credential_status_lists_id_fk" FOREIGN KEY ("status_list_id") REFERENCES "public"."credential_status_lists"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificate_credentials" ADD CONSTRAINT "certificate_credentials_key_id_credential_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."credential_keys"("id") ON DELETE no action ON UPDATE no action;