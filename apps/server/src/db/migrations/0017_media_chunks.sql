-- Media bytes move out of media.data (one bytea per file) into media_chunks, 256 KiB a row
-- (storage/database.ts, STORAGE_CHUNK_BYTES). A whole-file bytea is written by one statement
-- holding the file (twice over as PGlite's hex parameter) and read back the same way; chunks are
-- written one statement each as an upload streams in and read one at a time, so no query holds
-- more than a chunk, on PGlite (whose WebAssembly memory never shrinks) as on PostgreSQL.
-- A media row names its chunks by storage_key. An upload writes its chunks before its media row
-- exists (that is named by the file's hash): there is no foreign key, the triggers below delete
-- a row's chunks with the row (a facility's deletion cascading to its images) and when an import
-- gives a row new bytes, and the storage-cleanup job deletes chunks no row took up.
CREATE TABLE "media_chunks" (
	"key" text NOT NULL,
	"seq" integer NOT NULL,
	"data" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "media_chunks_key_seq_pk" PRIMARY KEY("key","seq")
);
--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "storage_key" text;--> statement-breakpoint
UPDATE "media" SET "storage_key" = gen_random_uuid()::text;--> statement-breakpoint
-- Every file cut at the boundaries the app writes: chunk n holds the bytes from n * 256 KiB on.
INSERT INTO "media_chunks" ("key", "seq", "data")
  SELECT m."storage_key", s.seq, substring(m."data" from s.seq * 262144 + 1 for 262144)
  FROM "media" m, generate_series(0, (length(m."data") - 1) / 262144) AS s(seq)
  WHERE length(m."data") > 0;--> statement-breakpoint
ALTER TABLE "media" ALTER COLUMN "storage_key" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "media" ADD CONSTRAINT "media_storage_key_unique" UNIQUE("storage_key");--> statement-breakpoint
CREATE FUNCTION "cc_media_chunks_dropped"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "media_chunks" WHERE "key" = OLD."storage_key";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "media_chunks_deleted" AFTER DELETE ON "media"
  FOR EACH ROW EXECUTE FUNCTION "cc_media_chunks_dropped"();--> statement-breakpoint
CREATE TRIGGER "media_chunks_replaced" AFTER UPDATE OF "storage_key" ON "media"
  FOR EACH ROW WHEN (OLD."storage_key" IS DISTINCT FROM NEW."storage_key")
  EXECUTE FUNCTION "cc_media_chunks_dropped"();
