import { fileURLToPath } from "node:url";
import { createPrismaClient } from "@hearth/service-kit";
import { PrismaClient, type Prisma } from "./generated/prisma/client";

/** This service's Prisma-layout migrations, applied at start-up. */
export const MIGRATIONS_DIR = fileURLToPath(new URL("../prisma/migrations", import.meta.url));

export type FinanceDb = PrismaClient;

/** The client inside a transaction: what a query takes when it must run in its caller's transaction. */
export type FinanceTx = Prisma.TransactionClient;

export function createFinanceDb(databaseUrl: string): FinanceDb {
  return createPrismaClient(PrismaClient, databaseUrl);
}
