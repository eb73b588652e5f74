-- Exports waiting or being built get their job (queue finance.family-export of the job runner:
-- one being built starts again), and the lease of the old export worker goes.
INSERT INTO "jobs" ("queue", "family_id", "subject_id", "dedupe_key", "run_after")
SELECT 'finance.family-export', "family_id", "id", "id"::text, "created_at"
  FROM "family_exports" WHERE "status" IN ('pending', 'processing');

-- AlterTable
ALTER TABLE "family_exports" DROP COLUMN "claimed_at",
DROP COLUMN "lease_expires_at";
