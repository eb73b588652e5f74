-- DropIndex
DROP INDEX "entries_fee_of_transfer_id_idx";

-- DropIndex
DROP INDEX "entries_import_id_idx";

-- DropIndex
DROP INDEX "entries_account_id_source_external_id_key";

-- CreateIndex
CREATE INDEX "entries_fee_of_transfer_id_idx" ON "entries"("fee_of_transfer_id") WHERE (fee_of_transfer_id IS NOT NULL);

-- CreateIndex
CREATE INDEX "entries_import_id_idx" ON "entries"("import_id") WHERE (import_id IS NOT NULL);

-- CreateIndex
CREATE UNIQUE INDEX "entries_account_id_source_external_id_key" ON "entries"("account_id", "source", "external_id") WHERE (external_id IS NOT NULL);
