import { AppError, pageWindow, paginationOf, type AccountType, type PageQuery } from "@hearth/contracts";
import type { FinanceDb } from "../db";
import type { AccountStatus, Prisma } from "../generated/prisma/client";
import { classificationOf } from "../balances/balance-calculator";
import { dateOf, todayIso } from "../ledger/dates";
import { centsIn } from "../ledger/money";
import { requestAccountSync, type SyncSignal } from "../syncs/sync-queue";

type Tx = Prisma.TransactionClient;

export interface NewAccount {
  name: string;
  account_type: AccountType;
  subtype?: string | null | undefined;
  currency?: string | undefined;
  balance?: string | undefined;
  opening_balance_date?: string | undefined;
  status?: "active" | "draft" | undefined;
  institution_name?: string | null | undefined;
  institution_domain?: string | null | undefined;
}

export interface AccountChanges {
  name?: string | undefined;
  subtype?: string | null | undefined;
  status?: "active" | "draft" | "disabled" | undefined;
  institution_name?: string | null | undefined;
  institution_domain?: string | null | undefined;
}

/** An account of the family that is not on its way out; disabled ones only when asked for. */
export async function findAccount(tx: Tx | FinanceDb, familyId: string, id: string, options: { includeDisabled?: boolean } = {}) {
  const row = await tx.account.findFirst({ where: { id, familyId, status: { in: visibleStatuses(options.includeDisabled ?? true) } } });
  if (!row) throw AppError.notFound("Account");
  return row;
}

function visibleStatuses(includeDisabled: boolean): AccountStatus[] {
  return includeDisabled ? ["active", "draft", "disabled"] : ["active", "draft"];
}

export function createAccountRepository(db: FinanceDb, signal: SyncSignal, familyCurrency: (familyId: string) => Promise<string>) {
  return {
    async list(familyId: string, query: PageQuery & { include_disabled?: boolean | undefined }) {
      const where: Prisma.AccountWhereInput = { familyId, status: { in: visibleStatuses(query.include_disabled ?? false) } };
      const [rows, total] = await db.$transaction([
        db.account.findMany({ where, orderBy: [{ name: "asc" }, { id: "asc" }], ...pageWindow(query) }),
        db.account.count({ where }),
      ]);
      return { rows, pagination: paginationOf(query, total) };
    },

    get(familyId: string, id: string, includeDisabled: boolean) {
      return findAccount(db, familyId, id, { includeDisabled });
    },

    /** The opening balance becomes an opening-anchor valuation: the calculator starts from it. */
    async create(familyId: string, input: NewAccount) {
      const currency = input.currency ?? (await familyCurrency(familyId));
      const openingCents = input.balance === undefined ? 0n : centsIn(input.balance, currency, "Balance");
      const openingDate = input.opening_balance_date ?? todayIso();
      const account = await db.$transaction(async (tx) => {
        const created = await tx.account.create({
          data: {
            familyId,
            name: input.name,
            accountType: input.account_type,
            subtype: input.subtype ?? null,
            classification: classificationOf(input.account_type),
            currency,
            status: input.status ?? "active",
            institutionName: input.institution_name ?? null,
            institutionDomain: input.institution_domain ?? null,
            // Shown until the first sync replaces it with the computed balance.
            balanceCents: openingDate <= todayIso() ? openingCents : 0n,
            cashBalanceCents: 0n,
          },
        });
        await tx.entry.create({
          data: {
            familyId,
            accountId: created.id,
            kind: "valuation",
            valuationKind: "opening_anchor",
            date: dateOf(openingDate),
            name: "Opening balance",
            amountCents: openingCents,
            currency,
          },
        });
        await requestAccountSync(tx, familyId, created.id, null);
        return created;
      });
      signal.poke();
      return account;
    },

    async update(familyId: string, id: string, changes: AccountChanges) {
      const current = await findAccount(db, familyId, id);
      return db.account.update({
        where: { id: current.id },
        data: {
          ...(changes.name !== undefined ? { name: changes.name } : {}),
          ...(changes.subtype !== undefined ? { subtype: changes.subtype } : {}),
          ...(changes.status !== undefined ? { status: changes.status } : {}),
          ...(changes.institution_name !== undefined ? { institutionName: changes.institution_name } : {}),
          ...(changes.institution_domain !== undefined ? { institutionDomain: changes.institution_domain } : {}),
        },
      });
    },

    /** Hidden at once (pending_deletion); the worker removes it and everything it holds afterwards. */
    async scheduleDeletion(familyId: string, id: string) {
      const { count } = await db.account.updateMany({
        where: { id, familyId, status: { not: "pending_deletion" } },
        data: { status: "pending_deletion" },
      });
      if (count === 0) throw AppError.notFound("Account");
      signal.poke();
    },
  };
}
export type AccountRepository = ReturnType<typeof createAccountRepository>;
