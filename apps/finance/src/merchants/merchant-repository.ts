import { AppError, type Merchant } from "@hearth/contracts";
import { isUniqueViolation } from "@hearth/service-kit";
import type { FinanceDb } from "../db";
import type { Merchant as MerchantRow } from "../generated/prisma/client";

export function toMerchantResource(row: MerchantRow): Merchant {
  return { id: row.id, name: row.name, type: row.kind, created_at: row.createdAt.toISOString(), updated_at: row.updatedAt.toISOString() };
}

export function createMerchantRepository(db: FinanceDb) {
  return {
    list(familyId: string) {
      return db.merchant.findMany({ where: { familyId }, orderBy: [{ name: "asc" }, { id: "asc" }] });
    },

    async get(familyId: string, id: string) {
      const row = await db.merchant.findFirst({ where: { id, familyId } });
      if (!row) throw AppError.notFound("Merchant");
      return row;
    },

    async create(familyId: string, data: { name: string; color?: string | undefined }) {
      try {
        return await db.merchant.create({ data: { familyId, name: data.name, color: data.color ?? null } });
      } catch (err) {
        if (isUniqueViolation(err)) throw AppError.validation(["Name has already been taken"]);
        throw err;
      }
    },
  };
}

export type MerchantRepository = ReturnType<typeof createMerchantRepository>;
