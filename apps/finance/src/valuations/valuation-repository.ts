import { AppError, pageWindow, paginationOf, type PageQuery, type Valuation } from "@hearth/contracts";
import type { FinanceDb } from "../db";
import type { Prisma } from "../generated/prisma/client";
import { findAccount } from "../accounts/account-repository";
import { toAccountSummary } from "../accounts/account-resource";
import { dateOf, dateRange, isoDateOf } from "../ledger/dates";
import { centsIn, entryAmountOf } from "../ledger/money";
import { requestAccountSync, type SyncSignal } from "../syncs/sync-queue";
import { isComplete } from "../ledger/complete-rows";

type Tx = Prisma.TransactionClient;

const VALUATION_INCLUDE = { account: { select: { id: true, name: true, accountType: true, status: true } } } as const;
type ValuationRow = Prisma.EntryGetPayload<{ include: typeof VALUATION_INCLUDE }>;

export function toValuationResource(row: ValuationRow): Valuation {
  return {
    id: row.id,
    ...entryAmountOf(row),
    notes: row.notes,
    kind: row.valuationKind ?? "reconciliation",
    account: toAccountSummary(row.account),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export interface ValuationQuery extends PageQuery {
  account_id?: string | undefined;
  start_date?: string | undefined;
  end_date?: string | undefined;
}

export function createValuationRepository(db: FinanceDb, signal: SyncSignal) {
  async function find(tx: Tx | FinanceDb, familyId: string, id: string): Promise<ValuationRow> {
    const row = await tx.entry.findFirst({
      where: { id, familyId, kind: "valuation", account: { status: { not: "pending_deletion" } } },
      include: VALUATION_INCLUDE,
    });
    if (!row || !isComplete(row.account)) throw AppError.notFound("Valuation");
    return row;
  }

  /** Serialises writes of one account's valuations, so one date never gets two. */
  async function lockAccount(tx: Tx, familyId: string, accountId: string) {
    const account = await findAccount(tx, familyId, accountId);
    await tx.$queryRaw`SELECT id FROM accounts WHERE id = ${account.id}::uuid FOR UPDATE`;
    return account;
  }

  return {
    async list(familyId: string, query: ValuationQuery) {
      const where: Prisma.EntryWhereInput = {
        familyId,
        kind: "valuation",
        account: { status: { not: "pending_deletion" } },
        ...(query.account_id ? { accountId: query.account_id } : {}),
        ...dateRange(query.start_date, query.end_date),
      };
      const [rows, total] = await db.$transaction([
        db.entry.findMany({
          where,
          include: VALUATION_INCLUDE,
          orderBy: [{ date: "desc" }, { id: "desc" }],
          ...pageWindow(query),
        }),
        db.entry.count({ where }),
      ]);
      return { valuations: rows.filter((row) => isComplete(row.account)).map(toValuationResource), pagination: paginationOf(query, total) };
    },

    async get(familyId: string, id: string) {
      return toValuationResource(await find(db, familyId, id));
    },

    /** One valuation per account and date: posting the same date again updates it (`existed` tells). */
    async upsert(familyId: string, input: { account_id: string; amount: string; date: string; notes?: string | null | undefined }) {
      const result = await db.$transaction(async (tx) => {
        const account = await lockAccount(tx, familyId, input.account_id);
        const amountCents = centsIn(input.amount, account.currency);
        const existing = await tx.entry.findFirst({ where: { accountId: account.id, kind: "valuation", date: dateOf(input.date) }, select: { id: true } });
        const entry = existing
          ? await tx.entry.update({ where: { id: existing.id }, data: { amountCents, ...(input.notes !== undefined ? { notes: input.notes } : {}) } })
          : await tx.entry.create({
              data: {
                familyId,
                accountId: account.id,
                kind: "valuation",
                valuationKind: "reconciliation",
                date: dateOf(input.date),
                name: "Manual value update",
                amountCents,
                currency: account.currency,
                notes: input.notes ?? null,
              },
            });
        await requestAccountSync(tx, familyId, account.id, input.date);
        return { existed: existing !== null, row: await find(tx, familyId, entry.id) };
      });
      signal.poke();
      return { existed: result.existed, valuation: toValuationResource(result.row) };
    },

    async update(familyId: string, id: string, input: { amount?: string | undefined; date?: string | undefined; notes?: string | null | undefined }) {
      const row = await db.$transaction(async (tx) => {
        const current = await find(tx, familyId, id);
        await lockAccount(tx, familyId, current.accountId);
        if (input.date !== undefined && input.date !== isoDateOf(current.date)) {
          const clash = await tx.entry.findFirst({
            where: { accountId: current.accountId, kind: "valuation", date: dateOf(input.date) },
            select: { id: true },
          });
          if (clash) throw AppError.validation(["A valuation already exists for this account on that date"]);
        }
        await tx.entry.update({
          where: { id },
          data: {
            ...(input.amount !== undefined ? { amountCents: centsIn(input.amount, current.currency) } : {}),
            ...(input.date !== undefined ? { date: dateOf(input.date) } : {}),
            ...(input.notes !== undefined ? { notes: input.notes } : {}),
          },
        });
        const oldDate = isoDateOf(current.date);
        await requestAccountSync(tx, familyId, current.accountId, input.date !== undefined && input.date < oldDate ? input.date : oldDate);
        return find(tx, familyId, id);
      });
      signal.poke();
      return toValuationResource(row);
    },
  };
}
export type ValuationRepository = ReturnType<typeof createValuationRepository>;
