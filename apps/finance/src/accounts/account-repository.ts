import { AppError, pageWindow, subtypeProblem, type BodyOf, type QueryOf } from "@hearth/contracts";
import type { FinanceDb, FinanceTx } from "../db";
import type { AccountStatus, Prisma } from "../generated/prisma/client";
import { calculatorAccountOf, classificationOf, openingStart } from "../balances/balance-calculator";
import { changedColumns } from "../ledger/column-changes";
import { dateOf } from "../ledger/dates";
import { requestAccountSync } from "../syncs/sync-queue-queries";
import { queueAccountRemoval } from "./account-removal-queries";
import { unlinkTransfersOf } from "../transfers/transfer-unlinking-queries";

/** A new account as stored: the currency resolved, the opening balance in minor units on its date. */
export type NewAccount = Omit<BodyOf<"accounts.create">["account"], "currency" | "balance" | "opening_balance_date"> & {
  currency: string;
  openingCents: bigint;
  openingDate: string;
};
export type AccountChanges = BodyOf<"accounts.update">["account"];

const CHANGE_COLUMNS = {
  name: "name",
  subtype: "subtype",
  status: "status",
  institution_name: "institutionName",
  institution_domain: "institutionDomain",
} as const;

/** An account of the family that is not on its way out; disabled ones only when asked for. */
export async function findAccount(tx: FinanceTx | FinanceDb, familyId: string, id: string, options: { includeDisabled?: boolean } = {}) {
  const row = await tx.account.findFirst({ where: { id, familyId, status: { in: visibleStatuses(options.includeDisabled ?? true) } } });
  if (!row) throw AppError.notFound("Account");
  return row;
}

function visibleStatuses(includeDisabled: boolean): AccountStatus[] {
  return includeDisabled ? ["active", "draft", "disabled"] : ["active", "draft"];
}

export function createAccountRepository(db: FinanceDb) {
  return {
    async list(familyId: string, query: QueryOf<"accounts.list">) {
      const where: Prisma.AccountWhereInput = { familyId, status: { in: visibleStatuses(query.include_disabled ?? false) } };
      const [rows, total] = await db.$transaction([
        db.account.findMany({ where, orderBy: [{ name: "asc" }, { id: "asc" }], ...pageWindow(query) }),
        db.account.count({ where }),
      ]);
      return { rows, total };
    },

    get(familyId: string, id: string, includeDisabled: boolean) {
      return findAccount(db, familyId, id, { includeDisabled });
    },

    /** The opening balance becomes an opening-anchor valuation, and a sync of the new account is queued. */
    create(familyId: string, input: NewAccount) {
      return db.$transaction(async (tx) => {
        const created = await tx.account.create({
          data: {
            familyId,
            name: input.name,
            accountType: input.account_type,
            subtype: input.subtype ?? null,
            classification: classificationOf(input.account_type),
            currency: input.currency,
            status: input.status ?? "active",
            institutionName: input.institution_name ?? null,
            institutionDomain: input.institution_domain ?? null,
            // Shown until the first sync replaces it with the computed balance (the same figure).
            balanceCents: input.openingCents,
            cashBalanceCents: BigInt(openingStart(calculatorAccountOf(input.account_type), Number(input.openingCents)).endCashCents),
          },
        });
        await tx.entry.create({
          data: {
            familyId,
            accountId: created.id,
            kind: "valuation",
            valuationKind: "opening_anchor",
            date: dateOf(input.openingDate),
            name: "Opening balance",
            amountCents: input.openingCents,
            currency: input.currency,
          },
        });
        await requestAccountSync(tx, familyId, created.id, null);
        return created;
      });
    },

    /**
     * One statement guarded by the state it may change: an account scheduled for deletion (a DELETE
     * committed between our read and our write) is not found, never re-enabled.
     */
    async update(familyId: string, id: string, changes: AccountChanges) {
      // The type never changes, so the subtype is checked against the stored one (as create checks the given one).
      if (changes.subtype) {
        const problem = subtypeProblem((await findAccount(db, familyId, id)).accountType, changes.subtype);
        if (problem) throw AppError.validation([problem]);
      }
      const [row] = await db.account.updateManyAndReturn({
        where: { id, familyId, status: { in: visibleStatuses(true) } },
        data: changedColumns(changes, CHANGE_COLUMNS),
      });
      if (!row) throw AppError.notFound("Account");
      return row;
    },

    /** Hidden at once (pending_deletion); its removal job, queued with it, removes it and everything it holds. */
    async scheduleDeletion(familyId: string, id: string) {
      await db.$transaction(async (tx) => {
        const { count } = await tx.account.updateMany({
          where: { id, familyId, status: { not: "pending_deletion" } },
          data: { status: "pending_deletion" },
        });
        if (count === 0) throw AppError.notFound("Account");
        await queueAccountRemoval(tx, familyId, id);
      });
    },

    /** The family's accounts not on their way out (disabled ones too): what a family sync recomputes. */
    async liveIds(familyId: string): Promise<string[]> {
      const rows = await db.account.findMany({ where: { familyId, status: { not: "pending_deletion" } }, select: { id: true } });
      return rows.map((row) => row.id);
    },

    /**
     * Removes an account scheduled for deletion (its entries, balances and transfers go with it;
     * the other sides of its transfers become ordinary transactions), in the caller's transaction;
     * false when it is not (or no longer) scheduled.
     */
    async removeScheduled(tx: FinanceTx, familyId: string, id: string): Promise<boolean> {
      const [account] = await tx.$queryRaw<{ id: string }[]>`
        SELECT id FROM accounts WHERE id = ${id}::uuid AND family_id = ${familyId}::uuid AND status = 'pending_deletion' FOR UPDATE`;
      if (!account) return false;
      // Unlinking deletes the transfers' fee transactions first, some of them maybe here.
      await unlinkTransfersOf(tx, familyId, id);
      // Its entries go by cascade: the ledger's triggers count them out.
      await tx.account.delete({ where: { id } });
      return true;
    },
  };
}
export type AccountRepository = ReturnType<typeof createAccountRepository>;
