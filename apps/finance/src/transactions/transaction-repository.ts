import { AppError, pageWindow, paginationOf, type CreateTransactionInput, type TransactionListQuery, type UpdateTransactionInput } from "@hearth/contracts";
import { isUniqueViolation } from "@hearth/service-kit";
import type { FinanceDb } from "../db";
import type { Prisma } from "../generated/prisma/client";
import { findAccount } from "../accounts/account-repository";
import { amountFilter } from "../ledger/amount-filter";
import { createCountCache } from "../ledger/count-cache";
import { ledgerStateOf } from "../ledger/ledger-version";
import { dateOf, isoDateOf } from "../ledger/dates";
import { centsIn } from "../ledger/money";
import { requestAccountSync, type SyncSignal } from "../syncs/sync-queue";
import { TRANSACTION_INCLUDE, type TransactionRow } from "./transaction-resource";

type Tx = Prisma.TransactionClient;
type Nature = "income" | "expense" | "inflow" | "outflow";

/** Sure's sign rule: with a nature, income/inflow are negative and expense/outflow positive; without one the amount is taken as signed. */
export function signedCents(cents: bigint, nature: Nature | undefined): bigint {
  if (nature === undefined) return cents;
  const size = cents < 0n ? -cents : cents;
  return nature === "income" || nature === "inflow" ? -size : size;
}

/** Category, merchant and tags must be the family's own: anything else is a 422 naming it. */
async function checkReferences(
  tx: Tx,
  familyId: string,
  refs: { category_id?: string | null | undefined; merchant_id?: string | null | undefined; tag_ids?: string[] | undefined },
) {
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

export function createTransactionRepository(db: FinanceDb, signal: SyncSignal) {
  const counts = createCountCache();
  async function find(tx: Tx | FinanceDb, familyId: string, id: string): Promise<TransactionRow> {
    const row = await tx.entry.findFirst({
      where: { id, familyId, kind: "transaction", account: { status: { not: "pending_deletion" } } },
      include: TRANSACTION_INCLUDE,
    });
    if (!row) throw AppError.notFound("Transaction");
    return row;
  }

  function whereOf(familyId: string, query: TransactionListQuery, hidden: string[]): Prisma.EntryWhereInput {
    const and: Prisma.EntryWhereInput[] = [{ familyId, kind: "transaction" }];
    if (hidden.length > 0) and.push({ accountId: { notIn: hidden } });
    const accounts = [...(query.account_id ? [query.account_id] : []), ...(query.account_ids ?? [])];
    if (accounts.length > 0) and.push({ accountId: { in: accounts } });
    const categories = [...(query.category_id ? [query.category_id] : []), ...(query.category_ids ?? [])];
    if (categories.length > 0) and.push({ categoryId: { in: categories } });
    const merchants = [...(query.merchant_id ? [query.merchant_id] : []), ...(query.merchant_ids ?? [])];
    if (merchants.length > 0) and.push({ merchantId: { in: merchants } });
    if (query.tag_ids && query.tag_ids.length > 0) and.push({ tags: { some: { tagId: { in: query.tag_ids } } } });
    if (query.start_date) and.push({ date: { gte: dateOf(query.start_date) } });
    if (query.end_date) and.push({ date: { lte: dateOf(query.end_date) } });
    const amounts = amountFilter(query.min_amount, query.max_amount);
    if (amounts) and.push(amounts);
    if (query.type === "income") and.push({ amountCents: { lt: 0n } });
    if (query.type === "expense") and.push({ amountCents: { gte: 0n } });
    if (query.search) {
      const contains = { contains: query.search, mode: "insensitive" } as const;
      and.push({ OR: [{ name: contains }, { notes: contains }, { merchant: { name: contains } }] });
    }
    return { AND: and };
  }

  return {
    async list(familyId: string, query: TransactionListQuery) {
      const { version, hiddenAccountIds } = await ledgerStateOf(db, familyId);
      const where = whereOf(familyId, query, hiddenAccountIds);
      const { page: _page, per_page: _perPage, ...filters } = query;
      const countKey = JSON.stringify([familyId, version.toString(), hiddenAccountIds, filters]);
      const [rows, total] = await Promise.all([
        db.entry.findMany({
          where,
          include: TRANSACTION_INCLUDE,
          orderBy: [{ date: "desc" }, { id: "desc" }],
          ...pageWindow(query),
        }),
        counts.count(countKey, () => db.entry.count({ where })),
      ]);
      return { rows, pagination: paginationOf(query, total) };
    },

    get(familyId: string, id: string) {
      return find(db, familyId, id);
    },

    /** A replay of `external_id` + `source` (default "api") answers the transaction already made. */
    async create(familyId: string, input: CreateTransactionInput): Promise<{ created: boolean; row: TransactionRow }> {
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
            },
          });
          await requestAccountSync(tx, familyId, account.id, input.date);
          return find(tx, familyId, entry.id);
        });
        signal.poke();
        return { created: true, row };
      } catch (err) {
        // Two replays raced: the loser answers what the winner made.
        const winner = isUniqueViolation(err) ? await replayOf() : null;
        if (winner) return { created: false, row: await find(db, familyId, winner.id) };
        throw err;
      }
    },

    async update(familyId: string, id: string, input: UpdateTransactionInput) {
      const row = await db.$transaction(async (tx) => {
        const current = await find(tx, familyId, id);
        await checkReferences(tx, familyId, input);
        const currency = input.currency ?? current.currency;
        const amount =
          input.amount !== undefined
            ? signedCents(centsIn(input.amount, currency), input.nature)
            : input.nature !== undefined
              ? signedCents(current.amountCents, input.nature)
              : undefined;
        const name = input.name ?? input.description;
        await tx.entry.update({
          where: { id },
          data: {
            ...(input.date !== undefined ? { date: dateOf(input.date) } : {}),
            ...(amount !== undefined ? { amountCents: amount } : {}),
            ...(input.currency !== undefined ? { currency } : {}),
            ...(name !== undefined ? { name } : {}),
            ...(input.notes !== undefined ? { notes: input.notes } : {}),
            ...(input.excluded !== undefined ? { excluded: input.excluded } : {}),
            ...(input.category_id !== undefined ? { categoryId: input.category_id } : {}),
            ...(input.merchant_id !== undefined ? { merchantId: input.merchant_id } : {}),
            // tag_ids replaces the tags; omitted keeps them.
            ...(input.tag_ids !== undefined ? { tags: { deleteMany: {}, create: [...new Set(input.tag_ids)].map((tagId) => ({ tagId })) } } : {}),
          },
        });
        const oldDate = isoDateOf(current.date);
        const from = input.date !== undefined && input.date < oldDate ? input.date : oldDate;
        await requestAccountSync(tx, familyId, current.accountId, from);
        return find(tx, familyId, id);
      });
      signal.poke();
      return row;
    },

    /** Its transfer goes with it; the other side becomes an ordinary transaction again. */
    async delete(familyId: string, id: string) {
      await db.$transaction(async (tx) => {
        const current = await find(tx, familyId, id);
        const transfer = current.transferIn ?? current.transferOut;
        if (transfer) {
          const other = transfer.inflowEntryId === id ? transfer.outflowEntryId : transfer.inflowEntryId;
          await tx.entry.update({ where: { id: other }, data: { transactionKind: "standard" } });
        }
        await tx.entry.delete({ where: { id } });
        await requestAccountSync(tx, familyId, current.accountId, isoDateOf(current.date));
      });
      signal.poke();
    },
  };
}
export type TransactionRepository = ReturnType<typeof createTransactionRepository>;
