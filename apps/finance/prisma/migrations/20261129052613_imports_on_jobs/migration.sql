-- Imports waiting to be published, or being published, get their job (queue
-- finance.import-publish of the job runner), and the columns of the old import worker go.
INSERT INTO "jobs" ("queue", "family_id", "subject_id", "dedupe_key", "run_after")
SELECT 'finance.import-publish', "family_id", "id", "id"::text, coalesce("publish_requested_at", now())
  FROM "imports" WHERE "status" = 'importing';

-- DropIndex
DROP INDEX "imports_family_id_claimed_at_idx";

-- AlterTable
ALTER TABLE "imports" DROP COLUMN "claimed_at",
DROP COLUMN "lease_expires_at";
