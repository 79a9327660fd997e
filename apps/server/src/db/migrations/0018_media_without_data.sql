-- The bytes are in media_chunks since 0017.
ALTER TABLE "media" DROP COLUMN "data";
