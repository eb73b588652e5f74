import { AppError, type BodyOf } from "@hearth/contracts";
import type { FinanceDb } from "../db";
import type { Merchant } from "../generated/prisma/client";
import { changedColumns } from "../ledger/column-changes";
import { bumpLedgerVersion } from "../ledger/ledger-version-queries";
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
    createMissing(familyId: string, merchants: { name: string; color: string | null }[]) {
      return db.merchant.createManyAndReturn({ data: merchants.map((merchant) => ({ familyId, ...merchant })), skipDuplicates: true });
    },

    /** `id`: a merchant already read as the family's own. */
    update(familyId: string, id: string, changes: MerchantChanges) {
      // A new name changes what a transaction search finds.
      return withUniqueName(() =>
        db.$transaction(async (tx) => {
          if (changes.name !== undefined) await bumpLedgerVersion(tx, familyId);
          return tx.merchant.update({ where: { id }, data: changedColumns(changes, CHANGE_COLUMNS) });
        }),
      );
    },

    /** `id`: a merchant already read as the family's own. */
    async delete(familyId: string, id: string) {
      await db.$transaction(async (tx) => {
        await bumpLedgerVersion(tx, familyId);
        await tx.merchant.delete({ where: { id } });
      });
    },
  };
}
export type MerchantRepository = ReturnType<typeof createMerchantRepository>;
