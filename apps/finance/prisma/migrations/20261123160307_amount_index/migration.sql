-- DropIndex
DROP INDEX "entries_family_id_amount_cents_date_idx";

-- CreateIndex
CREATE INDEX "entries_family_id_currency_amount_cents_date_idx" ON "entries"("family_id", "currency", "amount_cents", "date");
