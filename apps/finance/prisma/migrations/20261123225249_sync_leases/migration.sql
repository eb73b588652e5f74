-- A claim's lease: its worker renews it while running, and once past any instance re-queues the run.
-- Rows claimed before this column existed have none: recovery gives them syncing_at + 10 minutes.
-- AlterTable
ALTER TABLE "syncs" ADD COLUMN     "lease_expires_at" TIMESTAMPTZ(3);
