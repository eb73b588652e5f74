import { createPrismaClient } from "@hearth/service-kit";
import { PrismaClient } from "./generated/prisma/client";

export type FinanceDb = PrismaClient;

export function createFinanceDb(databaseUrl: string): FinanceDb {
  return createPrismaClient(PrismaClient, databaseUrl);
}
