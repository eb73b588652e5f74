-- AlterTable
ALTER TABLE "imports" ADD COLUMN     "claimed_at" TIMESTAMPTZ(3);

-- CreateIndex
CREATE INDEX "imports_family_id_claimed_at_idx" ON "imports"("family_id", "claimed_at");
