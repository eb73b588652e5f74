-- AlterTable
ALTER TABLE "imports" ADD COLUMN     "encoding" TEXT NOT NULL DEFAULT 'utf-8';
