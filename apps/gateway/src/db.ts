import { createPrismaClient } from "@hearth/service-kit";
import { PrismaClient } from "./generated/prisma/client";

export type IdentityDb = PrismaClient;
export type IdentityTx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

export function createIdentityDb(databaseUrl: string): IdentityDb {
  return createPrismaClient(PrismaClient, databaseUrl);
}
