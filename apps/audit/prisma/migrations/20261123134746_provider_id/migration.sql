-- AlterTable
ALTER TABLE "audit_log_entries" ADD COLUMN     "provider_id" UUID;

-- CreateIndex
CREATE INDEX "audit_log_entries_family_id_provider_id_occurred_at_idx" ON "audit_log_entries"("family_id", "provider_id", "occurred_at" DESC);
