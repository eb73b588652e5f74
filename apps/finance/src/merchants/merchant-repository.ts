import { AppError, type Merchant } from "@hearth/contracts";
import { isUniqueViolation } from "@hearth/service-kit";
import type { FinanceDb } from "../db";
import type { Merchant as MerchantRow } from "../generated/prisma/client";
import { bumpLedgerVersion } from "../ledger/ledger-version";

export function toMerchantResource(row: MerchantRow): Merchant {
  return { id: row.id, name: row.name, type: row.kind, created_at: row.createdAt.toISOString(), updated_at: row.updatedAt.toISOString() };
}

const NAME_TAKEN = AppError.validation(["Name has already been taken"]);
const PROVIDER_MERCHANT = AppError.validation(["Merchants from a provider cannot be changed or deleted"]);

export function createMerchantRepository(db: FinanceDb) {
  /** A family merchant of the family: provider merchants come from connections and stay as they are. */
  async function ownMerchant(familyId: string, id: string) {
    const row = await db.merchant.findFirst({ where: { id, familyId } });
    if (!row) throw AppError.notFound("Merchant");
    if (row.kind !== "FamilyMerchant") throw PROVIDER_MERCHANT;
    return row;
  }

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
        if (isUniqueViolation(err)) throw NAME_TAKEN;
        throw err;
      }
    },

    async update(familyId: string, id: string, data: { name?: string | undefined; color?: string | null | undefined }) {
      const row = await ownMerchant(familyId, id);
      try {
        // A new name changes what a transaction search finds.
        return await db.$transaction(async (tx) => {
          if (data.name !== undefined) await bumpLedgerVersion(tx, familyId);
          return tx.merchant.update({
            where: { id: row.id },
            data: { ...(data.name !== undefined ? { name: data.name } : {}), ...(data.color !== undefined ? { color: data.color } : {}) },
          });
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw NAME_TAKEN;
        throw err;
      }
    },

    async delete(familyId: string, id: string) {
      const row = await ownMerchant(familyId, id);
      await db.$transaction(async (tx) => {
        await bumpLedgerVersion(tx, familyId);
        await tx.merchant.delete({ where: { id: row.id } });
      });
    },
  };
}

export type MerchantRepository = ReturnType<typeof createMerchantRepository>;
