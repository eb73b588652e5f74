-- CreateEnum
CREATE TYPE "ImportStatus" AS ENUM ('pending', 'importing', 'complete', 'failed', 'reverting', 'revert_failed');

-- AlterTable
ALTER TABLE "accounts" ADD COLUMN     "import_id" UUID;

-- AlterTable
ALTER TABLE "entries" ADD COLUMN     "import_id" UUID;

-- CreateTable
CREATE TABLE "imports" (
    "id" UUID NOT NULL,
    "family_id" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "status" "ImportStatus" NOT NULL DEFAULT 'pending',
    "account_id" UUID,
    "configuration" JSONB NOT NULL,
    "content" TEXT NOT NULL,
    "rows_count" INTEGER NOT NULL DEFAULT 0,
    "valid_rows_count" INTEGER NOT NULL DEFAULT 0,
    "rows_done" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "result" JSONB,
    "publish_requested_at" TIMESTAMPTZ(3),
    "lease_expires_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "imports_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "import_rows" (
    "id" UUID NOT NULL,
    "import_id" UUID NOT NULL,
    "row_number" INTEGER NOT NULL,
    "fields" JSONB NOT NULL,
    "errors" JSONB NOT NULL,
    "values" JSONB,

    CONSTRAINT "import_rows_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "imports_family_id_created_at_idx" ON "imports"("family_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "imports_status_publish_requested_at_idx" ON "imports"("status", "publish_requested_at");

-- CreateIndex
CREATE UNIQUE INDEX "import_rows_import_id_row_number_key" ON "import_rows"("import_id", "row_number");

-- CreateIndex
CREATE INDEX "entries_import_id_idx" ON "entries"("import_id");

-- AddForeignKey
ALTER TABLE "import_rows" ADD CONSTRAINT "import_rows_import_id_fkey" FOREIGN KEY ("import_id") REFERENCES "imports"("id") ON DELETE CASCADE ON UPDATE CASCADE;
