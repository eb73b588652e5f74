-- The new key first, so there is no moment without one (ON CONFLICT needs it).
-- CreateIndex
CREATE UNIQUE INDEX "holdings_account_id_date_security_id_currency_key" ON "holdings"("account_id", "date", "security_id", "currency");

-- DropIndex
DROP INDEX "holdings_account_id_date_idx";

-- DropIndex
DROP INDEX "holdings_account_id_security_id_date_currency_key";
