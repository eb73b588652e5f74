-- AlterTable
ALTER TABLE "family_exports" ADD COLUMN     "claimed_at" TIMESTAMPTZ(3);
