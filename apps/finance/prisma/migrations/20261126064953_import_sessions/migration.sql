-- CreateTable
CREATE TABLE "import_sessions" (
    "id" UUID NOT NULL,
    "family_id" UUID NOT NULL,
    "import_type" TEXT NOT NULL DEFAULT 'SureImport',
    "client_session_id" TEXT,
    "expected_chunks" INTEGER,
    "import_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "import_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "import_session_chunks" (
    "id" UUID NOT NULL,
    "session_id" UUID NOT NULL,
    "sequence" INTEGER NOT NULL,
    "client_chunk_id" TEXT,
    "checksum" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "rows_count" INTEGER NOT NULL,
    "summary" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "import_session_chunks_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "import_sessions_family_id_created_at_idx" ON "import_sessions"("family_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "import_sessions_family_id_client_session_id_key" ON "import_sessions"("family_id", "client_session_id");

-- CreateIndex
CREATE UNIQUE INDEX "import_session_chunks_session_id_sequence_key" ON "import_session_chunks"("session_id", "sequence");

-- CreateIndex
CREATE UNIQUE INDEX "import_session_chunks_session_id_client_chunk_id_key" ON "import_session_chunks"("session_id", "client_chunk_id");

-- AddForeignKey
ALTER TABLE "import_session_chunks" ADD CONSTRAINT "import_session_chunks_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "import_sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
