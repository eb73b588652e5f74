-- CreateTable
CREATE TABLE "import_account_mappings" (
    "import_id" UUID NOT NULL,
    "family_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "account_id" UUID,
    "create" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "import_account_mappings_pkey" PRIMARY KEY ("import_id","name")
);

-- CreateIndex
CREATE INDEX "import_account_mappings_account_id_idx" ON "import_account_mappings"("account_id");

-- AddForeignKey
ALTER TABLE "import_account_mappings" ADD CONSTRAINT "import_account_mappings_import_id_fkey" FOREIGN KEY ("import_id") REFERENCES "imports"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "import_account_mappings" ADD CONSTRAINT "import_account_mappings_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
