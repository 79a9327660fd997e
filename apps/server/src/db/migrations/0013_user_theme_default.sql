ALTER TABLE "preferences" ALTER COLUMN "theme" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "preferences" ALTER COLUMN "theme" DROP NOT NULL;--> statement-breakpoint
-- 'carely' was the column's default: nobody can be told from who chose it. They all follow the
-- installation's THEME from now on (unchanged where THEME is carely, the default).
UPDATE "preferences" SET "theme" = NULL WHERE "theme" = 'carely';
