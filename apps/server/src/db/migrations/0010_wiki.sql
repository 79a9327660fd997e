CREATE TABLE "wiki_confirmations" (
	"page_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"revision" integer NOT NULL,
	"confirmed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "wiki_confirmations_pk" PRIMARY KEY("page_id","user_id","revision")
);
--> statement-breakpoint
CREATE TABLE "wiki_pages" (
	"id" serial PRIMARY KEY NOT NULL,
	"topic_id" integer NOT NULL,
	"facility_id" integer,
	"slug" text NOT NULL,
	"origin" text DEFAULT 'app' NOT NULL,
	"package_hash" text,
	"position" integer DEFAULT 0 NOT NULL,
	"requires_confirmation" boolean DEFAULT false NOT NULL,
	"latest_revision" integer DEFAULT 0 NOT NULL,
	"released_revision" integer,
	"released_at" timestamp with time zone,
	"released_by" text,
	"version" integer DEFAULT 1 NOT NULL,
	"retired" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "wiki_revisions" (
	"page_id" integer NOT NULL,
	"number" integer NOT NULL,
	"content" jsonb NOT NULL,
	"summary" text DEFAULT '' NOT NULL,
	"author_id" integer,
	"author_name" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "wiki_revisions_pk" PRIMARY KEY("page_id","number")
);
--> statement-breakpoint
CREATE TABLE "wiki_search" (
	"page_id" integer NOT NULL,
	"lang" text NOT NULL,
	"config" text NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"document" "tsvector" NOT NULL,
	CONSTRAINT "wiki_search_pk" PRIMARY KEY("page_id","lang")
);
--> statement-breakpoint
CREATE TABLE "wiki_topics" (
	"id" serial PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"facility_id" integer,
	"title" text NOT NULL,
	"origin" text DEFAULT 'app' NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"retired" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "facility_id" integer;--> statement-breakpoint
ALTER TABLE "wiki_confirmations" ADD CONSTRAINT "wiki_confirmations_page_id_wiki_pages_id_fk" FOREIGN KEY ("page_id") REFERENCES "public"."wiki_pages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wiki_confirmations" ADD CONSTRAINT "wiki_confirmations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wiki_pages" ADD CONSTRAINT "wiki_pages_topic_id_wiki_topics_id_fk" FOREIGN KEY ("topic_id") REFERENCES "public"."wiki_topics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wiki_pages" ADD CONSTRAINT "wiki_pages_facility_id_facilities_id_fk" FOREIGN KEY ("facility_id") REFERENCES "public"."facilities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wiki_revisions" ADD CONSTRAINT "wiki_revisions_page_id_wiki_pages_id_fk" FOREIGN KEY ("page_id") REFERENCES "public"."wiki_pages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wiki_revisions" ADD CONSTRAINT "wiki_revisions_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wiki_search" ADD CONSTRAINT "wiki_search_page_id_wiki_pages_id_fk" FOREIGN KEY ("page_id") REFERENCES "public"."wiki_pages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wiki_topics" ADD CONSTRAINT "wiki_topics_facility_id_facilities_id_fk" FOREIGN KEY ("facility_id") REFERENCES "public"."facilities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "wiki_confirmations_user_idx" ON "wiki_confirmations" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "wiki_pages_slug_uq" ON "wiki_pages" USING btree ("topic_id","slug",coalesce("facility_id", 0));--> statement-breakpoint
CREATE INDEX "wiki_pages_released_at_idx" ON "wiki_pages" USING btree ("released_at");--> statement-breakpoint
CREATE INDEX "wiki_search_document_idx" ON "wiki_search" USING gin ("document");--> statement-breakpoint
CREATE UNIQUE INDEX "wiki_topics_key_uq" ON "wiki_topics" USING btree ("key",coalesce("facility_id", 0));--> statement-breakpoint
ALTER TABLE "media" ADD CONSTRAINT "media_facility_id_facilities_id_fk" FOREIGN KEY ("facility_id") REFERENCES "public"."facilities"("id") ON DELETE cascade ON UPDATE no action;