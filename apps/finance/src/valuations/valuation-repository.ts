import { AppError, pageWindow, type BodyOf, type QueryOf } from "@hearth/contracts";
import type { FinanceDb, FinanceTx } from "../db";
import type { Prisma } from "../generated/prisma/client";
import { findAccount } from "../accounts/account-repository";
import { isComplete } from "../ledger/complete-rows";
import { dateOf, dateRange, isoDateOf } from "../ledger/dates";
import { centsIn } from "../ledger/money";
import { requestAccountSync } from "../syncs/sync-queue-queries";

const VALUATION_INCLUDE = { account: { select: { id: true, name: true, accountType: true, status: true } } } as const;
export type ValuationRow = Prisma.EntryGetPayload<{ include: typeof VALUATION_INCLUDE }>;

/** `upsert` says how to answer, not what to store: the handler reads it. */
export type NewValuation = Omit<BodyOf<"valuations.create">["valuation"], "upsert">;
export type ValuationChanges = BodyOf<"valuations.update">["valuation"];

/** The opening balance is the balance before every entry (Sure's OpeningBalanceManager refuses a later date). */
async function assertBeforeOldestEntry(tx: FinanceTx, accountId: string, anchorId: string, date: string): Promise<void> {
  const oldest = await tx.entry.findFirst({ where: { accountId, id: { not: anchorId } }, orderBy: { date: "asc" }, select: { date: true } });
  if (oldest && date >= isoDateOf(oldest.date)) throw AppError.validation(["Opening balance date must be before the oldest entry date"]);
}

export function createValuationRepository(db: FinanceDb) {
  async function find(tx: FinanceTx | FinanceDb, familyId: string, id: string): Promise<ValuationRow> {
    const row = await tx.entry.findFirst({
      where: { id, familyId, kind: "valuation", account: { status: { not: "pending_deletion" } } },
      include: VALUATION_INCLUDE,
    });
    if (!row || !isComplete(row.account)) throw AppError.notFound("Valuation");
    return row;
  }

  /** Serialises writes of one account's valuations, so one date never gets two. */
  async function lockAccount(tx: FinanceTx, familyId: string, accountId: string) {
    const account = await findAccount(tx, familyId, accountId);
    await tx.$queryRaw`SELECT id FROM accounts WHERE id = ${account.id}::uuid FOR UPDATE`;
    return account;
  }

  return {
    async list(familyId: string, query: QueryOf<"valuations.list">) {
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
      return { rows: rows.filter((row) => isComplete(row.account)), total };
    },

    get(familyId: string, id: string) {
      return find(db, familyId, id);
    },

    /** One valuation per account and date: posting the same date again updates it (`existed` tells). */
    async upsert(familyId: string, input: NewValuation) {
      return db.$transaction(async (tx) => {
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
    },

    async update(familyId: string, id: string, changes: ValuationChanges) {
      return db.$transaction(async (tx) => {
        const current = await find(tx, familyId, id);
        await lockAccount(tx, familyId, current.accountId);
        if (changes.date !== undefined && changes.date !== isoDateOf(current.date)) {
          const clash = await tx.entry.findFirst({
            where: { accountId: current.accountId, kind: "valuation", date: dateOf(changes.date) },
            select: { id: true },
          });
          if (clash) throw AppError.validation(["A valuation already exists for this account on that date"]);
          if (current.valuationKind === "opening_anchor") await assertBeforeOldestEntry(tx, current.accountId, current.id, changes.date);
        }
        await tx.entry.update({
          where: { id },
          data: {
            ...(changes.amount !== undefined ? { amountCents: centsIn(changes.amount, current.currency) } : {}),
            ...(changes.date !== undefined ? { date: dateOf(changes.date) } : {}),
            ...(changes.notes !== undefined ? { notes: changes.notes } : {}),
          },
        });
        const oldDate = isoDateOf(current.date);
        await requestAccountSync(tx, familyId, current.accountId, changes.date !== undefined && changes.date < oldDate ? changes.date : oldDate);
        return find(tx, familyId, id);
      });
    },
  };
}
export type ValuationRepository = ReturnType<typeof createValuationRepository>;
