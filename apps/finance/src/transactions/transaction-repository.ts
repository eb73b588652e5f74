import { AppError, pageWindow, type BodyOf, type QueryOf } from "@hearth/contracts";
import { isUniqueViolation } from "@hearth/service-kit";
import type { FinanceDb, FinanceTx } from "../db";
import type { Prisma } from "../generated/prisma/client";
import { findAccount } from "../accounts/account-repository";
import { isComplete } from "../ledger/complete-rows";
import { dateOf, isoDateOf } from "../ledger/dates";
import { ledgerStateOf, rememberTransactionCount } from "../ledger/ledger-version-queries";
import { createListCache } from "../ledger/list-cache";
import { centsIn } from "../ledger/money";
import { requestAccountSync } from "../syncs/sync-queue-queries";
import { removeFeesOf } from "../transfers/transfer-fee-queries";
import { locksOfChanges, locksOfNewTransaction, withLocks } from "../rules/attribute-locks";
import { applyRulesToNewTransaction } from "../rules/rules-on-create";
import { amountChangeOf, signedCents } from "./transaction-amounts";
import { checkpointsOf, countTransactions, entryCurrenciesOf, pageIds, transactionFilterSql } from "./transaction-page-queries";

const ACCOUNT_SUMMARY = { select: { id: true, name: true, accountType: true, status: true } } as const;

/** What a transaction's answer needs, loaded with it in one round of queries. */
const TRANSACTION_INCLUDE = {
  account: ACCOUNT_SUMMARY,
  category: { select: { id: true, name: true, color: true, icon: true } },
  merchant: { select: { id: true, name: true } },
  tags: { select: { tag: { select: { id: true, name: true, color: true } } }, orderBy: { tag: { name: "asc" } } },
  transferIn: { include: { outflow: { select: { account: ACCOUNT_SUMMARY } } } },
  transferOut: { include: { inflow: { select: { amountCents: true, currency: true, account: ACCOUNT_SUMMARY } } } },
} as const satisfies Prisma.EntryInclude;
export type TransactionRow = Prisma.EntryGetPayload<{ include: typeof TRANSACTION_INCLUDE }>;

export type NewTransaction = BodyOf<"transactions.create">["transaction"];
export type TransactionChanges = BodyOf<"transactions.update">["transaction"];

/** Category, merchant and tags must be the family's own: anything else is a 422 naming it. */
async function checkReferences(tx: FinanceTx, familyId: string, refs: Pick<TransactionChanges, "category_id" | "merchant_id" | "tag_ids">) {
  if (refs.category_id && !(await tx.category.findFirst({ where: { id: refs.category_id, familyId }, select: { id: true } }))) {
    throw AppError.validation(["Category not found"]);
  }
  if (refs.merchant_id && !(await tx.merchant.findFirst({ where: { id: refs.merchant_id, familyId }, select: { id: true } }))) {
    throw AppError.validation(["Merchant not found"]);
  }
  if (refs.tag_ids && refs.tag_ids.length > 0) {
    const unique = [...new Set(refs.tag_ids)];
    const found = await tx.tag.count({ where: { id: { in: unique }, familyId } });
    if (found !== unique.length) throw AppError.validation(["Tag not found"]);
  }
}

export function createTransactionRepository(db: FinanceDb) {
  const cache = createListCache();
  async function find(tx: FinanceTx | FinanceDb, familyId: string, id: string): Promise<TransactionRow> {
    const row = await tx.entry.findFirst({
      where: { id, familyId, kind: "transaction", account: { status: { not: "pending_deletion" } } },
      include: TRANSACTION_INCLUDE,
    });
    if (!row || !isComplete(row.account)) throw AppError.notFound("Transaction");
    return row;
  }

  return {
    /** Newest first; totals and deep-page positions come from the cache of the family's ledger version. */
    async list(familyId: string, query: QueryOf<"transactions.list">) {
      const { version, hiddenAccountIds, transactions } = await ledgerStateOf(db, familyId);
      const currencies = query.min_amount !== undefined || query.max_amount !== undefined ? await entryCurrenciesOf(db, familyId) : [];
      const where = transactionFilterSql(familyId, query, hiddenAccountIds, currencies);
      const { page: _page, per_page: _perPage, ...filters } = query;
      const key = JSON.stringify([familyId, version.toString(), hiddenAccountIds, filters]);
      // The family's own list (no filter, nothing hidden) takes its total from the kept count.
      const unfiltered = Object.values(filters).every((value) => value === undefined) && hiddenAccountIds.length === 0;
      const total =
        unfiltered && transactions !== null
          ? Number(transactions)
          : await cache.remember(`count:${key}`, async () => {
              const counted = await countTransactions(db, where);
              if (unfiltered) await rememberTransactionCount(db, familyId, version, counted);
              return counted;
            });
      const ids = await pageIds(db, where, pageWindow(query), total, () => cache.remember(`checkpoints:${key}`, () => checkpointsOf(db, where)));
      const rows = await db.entry.findMany({ where: { id: { in: ids } }, include: TRANSACTION_INCLUDE });
      const byId = new Map(rows.map((row) => [row.id, row]));
      return { rows: ids.map((id) => byId.get(id)).filter((row): row is TransactionRow => row !== undefined && isComplete(row.account)), total };
    },

    get(familyId: string, id: string) {
      return find(db, familyId, id);
    },

    /** A replay of `external_id` + `source` (default "api") answers the transaction already made. */
    async create(familyId: string, input: NewTransaction): Promise<{ created: boolean; row: TransactionRow }> {
      const source = input.external_id !== undefined ? (input.source ?? "api") : null;
      const replayOf = async () =>
        input.external_id === undefined
          ? null
          : db.entry.findFirst({ where: { familyId, accountId: input.account_id, source, externalId: input.external_id }, select: { id: true } });
      const existing = await replayOf();
      if (existing) return { created: false, row: await find(db, familyId, existing.id) };
      try {
        const row = await db.$transaction(async (tx) => {
          const account = await findAccount(tx, familyId, input.account_id);
          await checkReferences(tx, familyId, input);
          const currency = input.currency ?? account.currency;
          const entry = await tx.entry.create({
            data: {
              familyId,
              accountId: account.id,
              kind: "transaction",
              transactionKind: "standard",
              date: dateOf(input.date),
              name: (input.name ?? input.description)!,
              amountCents: signedCents(centsIn(input.amount, currency), input.nature),
              currency,
              notes: input.notes ?? null,
              excluded: input.excluded ?? false,
              externalId: input.external_id ?? null,
              source,
              categoryId: input.category_id ?? null,
              merchantId: input.merchant_id ?? null,
              tags: input.tag_ids ? { create: [...new Set(input.tag_ids)].map((tagId) => ({ tagId })) } : undefined,
              // What the creator chose is theirs: the family's rules leave it alone.
              lockedAttributes: locksOfNewTransaction(input),
            },
          });
          await requestAccountSync(tx, familyId, account.id, input.date);
          // Before answering, so the answer shows what the rules did.
          await applyRulesToNewTransaction(tx, familyId, entry.id);
          return find(tx, familyId, entry.id);
        });
        return { created: true, row };
      } catch (err) {
        // Two replays raced: the loser answers what the winner made.
        const winner = isUniqueViolation(err) ? await replayOf() : null;
        if (winner) return { created: false, row: await find(db, familyId, winner.id) };
        throw err;
      }
    },

    async update(familyId: string, id: string, changes: TransactionChanges) {
      return db.$transaction(async (tx) => {
        const current = await find(tx, familyId, id);
        await checkReferences(tx, familyId, changes);
        const { currency, amountCents } = amountChangeOf(current, changes);
        const name = changes.name ?? changes.description;
        const locks = locksOfChanges(current, { ...changes, name });
        await tx.entry.update({
          where: { id },
          data: {
            ...(changes.date !== undefined ? { date: dateOf(changes.date) } : {}),
            ...(amountCents !== undefined ? { amountCents } : {}),
            ...(changes.currency !== undefined ? { currency } : {}),
            ...(name !== undefined ? { name } : {}),
            ...(changes.notes !== undefined ? { notes: changes.notes } : {}),
            ...(changes.excluded !== undefined ? { excluded: changes.excluded } : {}),
            ...(changes.category_id !== undefined ? { categoryId: changes.category_id } : {}),
            ...(changes.merchant_id !== undefined ? { merchantId: changes.merchant_id } : {}),
            // tag_ids replaces the tags; omitted keeps them.
            ...(changes.tag_ids !== undefined ? { tags: { deleteMany: {}, create: [...new Set(changes.tag_ids)].map((tagId) => ({ tagId })) } } : {}),
            // What a person changed by hand is locked against rules.
            ...(locks.length > 0 ? { lockedAttributes: withLocks(current.lockedAttributes, locks) } : {}),
          },
        });
        const oldDate = isoDateOf(current.date);
        const from = changes.date !== undefined && changes.date < oldDate ? changes.date : oldDate;
        await requestAccountSync(tx, familyId, current.accountId, from);
        return find(tx, familyId, id);
      });
    },

    /** Its transfer goes with it (with the transfer's fee transactions); the other side becomes an ordinary transaction again. */
    async delete(familyId: string, id: string) {
      await db.$transaction(async (tx) => {
        const current = await find(tx, familyId, id);
        const transfer = current.transferIn ?? current.transferOut;
        if (transfer) {
          const other = transfer.inflowEntryId === id ? transfer.outflowEntryId : transfer.inflowEntryId;
          await tx.entry.update({ where: { id: other }, data: { transactionKind: "standard" } });
          await removeFeesOf(tx, familyId, [transfer.id]);
        }
        await tx.entry.delete({ where: { id } });
        await requestAccountSync(tx, familyId, current.accountId, isoDateOf(current.date));
      });
    },
  };
}
export type TransactionRepository = ReturnType<typeof createTransactionRepository>;
