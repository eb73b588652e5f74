-- CreateIndex
CREATE INDEX "entries_family_id_currency_date_amount_cents_idx" ON "entries"("family_id", "currency", "date", "amount_cents");
