-- The wider index first, so the list never runs without one.
-- CreateIndex
CREATE INDEX "entries_family_kind_date_id_report_idx" ON "entries"("family_id", "kind", "date" DESC, "id" DESC, "account_id", "category_id", "amount_cents", "currency", "transaction_kind", "excluded");

-- DropIndex
DROP INDEX "entries_family_id_kind_date_id_idx";
