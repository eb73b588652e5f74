-- AlterTable
ALTER TABLE "chat_messages" ADD COLUMN     "error" TEXT;
