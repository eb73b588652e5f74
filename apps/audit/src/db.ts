import { createPrismaClient } from "@hearth/service-kit";
import { PrismaClient } from "./generated/prisma/client";

export type AuditDb = PrismaClient;

export function createAuditDb(databaseUrl: string): AuditDb {
  return createPrismaClient(PrismaClient, databaseUrl);
}
