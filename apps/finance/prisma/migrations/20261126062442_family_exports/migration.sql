-- CreateEnum
CREATE TYPE "FamilyExportStatus" AS ENUM ('pending', 'processing', 'completed', 'failed');

-- CreateTable
CREATE TABLE "family_exports" (
    "id" UUID NOT NULL,
    "family_id" UUID NOT NULL,
    "status" "FamilyExportStatus" NOT NULL DEFAULT 'pending',
    "byte_size" BIGINT,
    "row_counts" JSONB,
    "error" TEXT,
    "lease_expires_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "family_exports_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "family_export_chunks" (
    "export_id" UUID NOT NULL,
    "seq" INTEGER NOT NULL,
    "data" BYTEA NOT NULL,

    CONSTRAINT "family_export_chunks_pkey" PRIMARY KEY ("export_id","seq")
);

-- CreateIndex
CREATE INDEX "family_exports_family_id_created_at_idx" ON "family_exports"("family_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "family_exports_status_created_at_idx" ON "family_exports"("status", "created_at");

-- AddForeignKey
ALTER TABLE "family_export_chunks" ADD CONSTRAINT "family_export_chunks_export_id_fkey" FOREIGN KEY ("export_id") REFERENCES "family_exports"("id") ON DELETE CASCADE ON UPDATE CASCADE;
