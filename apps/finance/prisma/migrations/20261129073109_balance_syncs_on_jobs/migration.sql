-- Balance syncs waiting or running get their job (queue finance.balance-sync of the job
-- runner), accounts scheduled for deletion theirs (finance.account-removal), and the lease
-- column of the old sync worker goes. A sync that was running is run again from its window.
INSERT INTO "jobs" ("queue", "family_id", "subject_id", "dedupe_key", "run_after")
SELECT 'finance.balance-sync', "family_id", "id", "id"::text, "created_at"
  FROM "syncs" WHERE "status" IN ('pending', 'syncing') AND "parent_id" IS NULL;

UPDATE "syncs" SET "status" = 'stale' WHERE "status" = 'syncing' AND "parent_id" IS NOT NULL;

INSERT INTO "jobs" ("queue", "family_id", "subject_id", "dedupe_key")
SELECT 'finance.account-removal', "family_id", "id", "id"::text
  FROM "accounts" WHERE "status" = 'pending_deletion';

-- AlterTable
ALTER TABLE "syncs" DROP COLUMN "lease_expires_at";
