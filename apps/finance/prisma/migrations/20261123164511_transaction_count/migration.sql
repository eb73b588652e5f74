-- AlterTable
ALTER TABLE "ledger_versions" ADD COLUMN     "transactions" BIGINT;
