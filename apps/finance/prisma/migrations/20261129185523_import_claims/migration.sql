-- CreateTable
CREATE TABLE "import_claims" (
    "import_id" UUID NOT NULL,
    "entry_id" UUID NOT NULL,
    "family_id" UUID NOT NULL,
    "prior_category_id" UUID,
    "applied_category_id" UUID,
    "prior_notes" TEXT,
    "applied_notes" TEXT,
    "prior_tag_ids" UUID[],
    "applied_tag_ids" UUID[],
    "tags_applied" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "import_claims_pkey" PRIMARY KEY ("import_id","entry_id")
);

-- CreateIndex
CREATE INDEX "import_claims_entry_id_idx" ON "import_claims"("entry_id");

-- AddForeignKey
ALTER TABLE "import_claims" ADD CONSTRAINT "import_claims_import_id_fkey" FOREIGN KEY ("import_id") REFERENCES "imports"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "import_claims" ADD CONSTRAINT "import_claims_entry_id_fkey" FOREIGN KEY ("entry_id") REFERENCES "entries"("id") ON DELETE CASCADE ON UPDATE CASCADE;
