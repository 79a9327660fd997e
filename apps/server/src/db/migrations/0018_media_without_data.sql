-- The bytes are in media_chunks since 0017. Emptied first: a dropped column's values stay in the
-- table's storage until it is rewritten, emptied ones become dead rows that vacuum reuses.
UPDATE "media" SET "data" = ''::bytea;--> statement-breakpoint
ALTER TABLE "media" DROP COLUMN "data";
