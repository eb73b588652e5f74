-- AlterEnum
ALTER TYPE "TransactionKind" ADD VALUE 'investment_contribution';

-- AlterTable
ALTER TABLE "entries" ADD COLUMN     "fee_of_transfer_id" UUID;

-- Fees become their own expense transactions (Sure's Transfer#fee_transactions), so they count as
-- spending. Existing transfers had them folded into their sides: the outflow paid amount + source
-- fee, the inflow received the amount less the destination fee. Split them out. Each account keeps
-- its balance (its total is unchanged), so nothing needs recomputing.
INSERT INTO "categories" ("id", "family_id", "name", "color", "icon", "classification", "created_at", "updated_at")
SELECT gen_random_uuid(), "family_id", 'Fees', '#737373', 'receipt', 'expense', now(), now()
  FROM (SELECT DISTINCT "family_id" FROM "transfers"
         WHERE COALESCE("source_fee_cents", 0) > 0 OR COALESCE("destination_fee_cents", 0) > 0) AS "charged"
ON CONFLICT ("family_id", "name") DO NOTHING;

INSERT INTO "entries" ("id", "family_id", "account_id", "kind", "date", "name", "amount_cents", "currency",
                       "category_id", "transaction_kind", "fee_of_transfer_id", "created_at", "updated_at")
SELECT gen_random_uuid(), t."family_id", o."account_id", 'transaction', o."date", 'Transfer fee: ' || o."name",
       t."source_fee_cents", o."currency", c."id", 'standard', t."id", now(), now()
  FROM "transfers" t
  JOIN "entries" o ON o."id" = t."outflow_entry_id"
  JOIN "categories" c ON c."family_id" = t."family_id" AND c."name" = 'Fees'
 WHERE t."source_fee_cents" > 0;

INSERT INTO "entries" ("id", "family_id", "account_id", "kind", "date", "name", "amount_cents", "currency",
                       "category_id", "transaction_kind", "fee_of_transfer_id", "created_at", "updated_at")
SELECT gen_random_uuid(), t."family_id", i."account_id", 'transaction', i."date", 'Transfer fee: ' || i."name",
       t."destination_fee_cents", i."currency", c."id", 'standard', t."id", now(), now()
  FROM "transfers" t
  JOIN "entries" i ON i."id" = t."inflow_entry_id"
  JOIN "categories" c ON c."family_id" = t."family_id" AND c."name" = 'Fees'
 WHERE t."destination_fee_cents" > 0;

UPDATE "entries" o SET "amount_cents" = o."amount_cents" - t."source_fee_cents", "updated_at" = now()
  FROM "transfers" t WHERE o."id" = t."outflow_entry_id" AND t."source_fee_cents" > 0;

UPDATE "entries" i SET "amount_cents" = i."amount_cents" - t."destination_fee_cents", "updated_at" = now()
  FROM "transfers" t WHERE i."id" = t."inflow_entry_id" AND t."destination_fee_cents" > 0;

-- The families' cached transaction counts are stale now: the next list counts again.
UPDATE "ledger_versions" SET "transactions" = NULL, "version" = "version" + 1
 WHERE "family_id" IN (SELECT "family_id" FROM "transfers"
                        WHERE COALESCE("source_fee_cents", 0) > 0 OR COALESCE("destination_fee_cents", 0) > 0);

-- AlterTable
ALTER TABLE "transfers" DROP COLUMN "destination_fee_cents",
DROP COLUMN "source_fee_cents";

-- CreateIndex
CREATE INDEX "entries_fee_of_transfer_id_idx" ON "entries"("fee_of_transfer_id");

-- AddForeignKey
ALTER TABLE "entries" ADD CONSTRAINT "entries_fee_of_transfer_id_fkey" FOREIGN KEY ("fee_of_transfer_id") REFERENCES "transfers"("id") ON DELETE CASCADE ON UPDATE CASCADE;
