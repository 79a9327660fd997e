CREATE TABLE "additional_qualifications" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"facility_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "training_matrices" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "training_matrix_entries" (
	"user_id" integer NOT NULL,
	"training_id" integer NOT NULL,
	CONSTRAINT "training_matrix_entries_user_id_training_id_pk" PRIMARY KEY("user_id","training_id")
);
--> statement-breakpoint
CREATE TABLE "user_additional_qualifications" (
	"user_id" integer NOT NULL,
	"additional_qualification_id" integer NOT NULL,
	CONSTRAINT "user_additional_qualifications_pk" PRIMARY KEY("user_id","additional_qualification_id")
);
--> statement-breakpoint
ALTER TABLE "additional_qualifications" ADD CONSTRAINT "additional_qualifications_facility_id_facilities_id_fk" FOREIGN KEY ("facility_id") REFERENCES "public"."facilities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "training_matrices" ADD CONSTRAINT "training_matrices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "training_matrices" ADD CONSTRAINT "training_matrices_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "training_matrix_entries" ADD CONSTRAINT "training_matrix_entries_user_id_training_matrices_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."training_matrices"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "training_matrix_entries" ADD CONSTRAINT "training_matrix_entries_training_id_trainings_id_fk" FOREIGN KEY ("training_id") REFERENCES "public"."trainings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_additional_qualifications" ADD CONSTRAINT "user_additional_qualifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_additional_qualifications" ADD CONSTRAINT "user_additional_qualifications_aq_fk" FOREIGN KEY ("additional_qualification_id") REFERENCES "public"."additional_qualifications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "additional_qualifications_facility_name_uq" ON "additional_qualifications" USING btree ("facility_id",lower("name"));