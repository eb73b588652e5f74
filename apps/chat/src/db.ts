import { fileURLToPath } from "node:url";
import { createPrismaClient } from "@hearth/service-kit";
import { PrismaClient, type Prisma } from "./generated/prisma/client";

/** This service's Prisma-layout migrations, applied at start-up. */
export const MIGRATIONS_DIR = fileURLToPath(new URL("../prisma/migrations", import.meta.url));

export type ChatDb = PrismaClient;
export type ChatTx = Prisma.TransactionClient;

export function createChatDb(databaseUrl: string): ChatDb {
  return createPrismaClient(PrismaClient, databaseUrl);
}
