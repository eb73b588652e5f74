import { AppError, type BodyOf } from "@hearth/contracts";
import type { FinanceDb } from "../db";
import type { Merchant } from "../generated/prisma/client";
import { changedColumns } from "../ledger/column-changes";
import { withUniqueName } from "../ledger/unique-name";

export type NewMerchant = BodyOf<"merchants.create">["merchant"];
export type MerchantChanges = BodyOf<"merchants.update">["merchant"];

const CHANGE_COLUMNS = { name: "name", color: "color" } as const;

export function createMerchantRepository(db: FinanceDb) {
  return {
    list(familyId: string) {
      return db.merchant.findMany({ where: { familyId }, orderBy: [{ name: "asc" }, { id: "asc" }] });
    },

    async get(familyId: string, id: string): Promise<Merchant> {
      const row = await db.merchant.findFirst({ where: { id, familyId } });
      if (!row) throw AppError.notFound("Merchant");
      return row;
    },

    create(familyId: string, input: NewMerchant) {
      return withUniqueName(() => db.merchant.create({ data: { familyId, name: input.name, color: input.color ?? null } }));
    },

    /** The family's merchants of these names (exact, as the unique key compares them). */
    named(familyId: string, names: string[]) {
      return db.merchant.findMany({ where: { familyId, name: { in: names } }, select: { name: true } });
    },

    /** Creates the merchants whose name is still free; a name taken meanwhile is left out, not an error. */
    createMissing(familyId: string, merchants: { name: string; color: string | null; website_url: string | null }[]) {
      return db.merchant.createManyAndReturn({
        data: merchants.map(({ website_url, ...merchant }) => ({ familyId, ...merchant, websiteUrl: website_url })),
        skipDuplicates: true,
      });
    },

    /** `id`: a merchant already read as the family's own. (A new name changes what a transaction search finds: the ledger's triggers see it.) */
    update(id: string, changes: MerchantChanges) {
      return withUniqueName(() => db.merchant.update({ where: { id }, data: changedColumns(changes, CHANGE_COLUMNS) }));
    },

    /** `id`: a merchant already read as the family's own. (Its transactions lose it: the ledger's triggers see them change.) */
    async delete(id: string) {
      await db.merchant.delete({ where: { id } });
    },
  };
}
export type MerchantRepository = ReturnType<typeof createMerchantRepository>;
