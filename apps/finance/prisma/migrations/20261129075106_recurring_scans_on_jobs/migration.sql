-- Recurring scans asked for become jobs of the job runner (queue finance.recurring-scan, one
-- waiting per family, keyed by the family), and the scan queue's own table goes.
INSERT INTO "jobs" ("queue", "family_id", "dedupe_key", "run_after")
SELECT 'finance.recurring-scan', "family_id", "family_id"::text, "run_after"
  FROM "recurring_scans";

-- DropTable
DROP TABLE "recurring_scans";
