import { AppError, pageWindow, type BodyOf, type QueryOf } from "@hearth/contracts";
import type { FinanceDb, FinanceTx } from "../db";
import type { Prisma } from "../generated/prisma/client";
import { findAccount } from "../accounts/account-repository";
import { isComplete } from "../ledger/complete-rows";
import { dateOf, dateRange } from "../ledger/dates";
import { requestAccountSync } from "../syncs/sync-queue-queries";
import { familyCategoryNamed, FEES_CATEGORY, INVESTMENT_CONTRIBUTIONS_CATEGORY } from "./transfer-category-queries";
import { removeFeesOf } from "./transfer-fee-queries";
import { transferAmountsOf, type NewTransferBody } from "./transfer-amounts";
import { createdOutflowKindOf, transferNamePrefixOf } from "./transfer-kinds";

const SIDE = { include: { account: { select: { id: true, name: true, accountType: true } } } } as const;
const PAIR_INCLUDE = { inflow: SIDE, outflow: SIDE } as const satisfies Prisma.TransferInclude;
const TRANSFER_INCLUDE = { ...PAIR_INCLUDE, fees: { select: { accountId: true, amountCents: true } } } as const satisfies Prisma.TransferInclude;
export type TransferRow = Prisma.TransferGetPayload<{ include: typeof TRANSFER_INCLUDE }>;
export type RejectedTransferRow = Prisma.RejectedTransferGetPayload<{ include: typeof PAIR_INCLUDE }>;

export type TransferChanges = Omit<BodyOf<"transfers.update">["transfer"], "status"> & { status?: "confirmed" | undefined };

const VISIBLE_SIDE = { account: { status: { not: "pending_deletion" } } } as const satisfies Prisma.EntryWhereInput;

/** Filters shared by transfers and rejected pairs, as Sure's TransferDecisionFiltering: either side's account, either side's date. */
function pairWhere(query: QueryOf<"rejectedTransfers.list">) {
  const dates = dateRange(query.start_date, query.end_date);
  const either = (filter: Prisma.EntryWhereInput) => [{ inflow: filter }, { outflow: filter }];
  return {
    inflow: VISIBLE_SIDE,
    outflow: VISIBLE_SIDE,
    AND: [...(query.account_id ? [{ OR: either({ accountId: query.account_id }) }] : []), ...(dates.date ? [{ OR: either(dates) }] : [])],
  };
}

export function createTransferRepository(db: FinanceDb) {
  async function find(tx: FinanceTx | FinanceDb, familyId: string, id: string): Promise<TransferRow> {
    const row = await tx.transfer.findFirst({ where: { id, familyId, inflow: VISIBLE_SIDE, outflow: VISIBLE_SIDE }, include: TRANSFER_INCLUDE });
    if (!row || !isComplete(row.inflow?.account, row.outflow?.account)) throw AppError.notFound("Transfer");
    return row;
  }

  /** Both sides become ordinary transactions again (the pair stays in the ledger); its fee transactions go with it, as in Sure. */
  async function unlink(tx: FinanceTx, familyId: string, transfer: { id: string; inflowEntryId: string; outflowEntryId: string }) {
    await removeFeesOf(tx, familyId, [transfer.id]);
    await tx.transfer.delete({ where: { id: transfer.id } });
    await tx.entry.updateMany({ where: { id: { in: [transfer.inflowEntryId, transfer.outflowEntryId] } }, data: { transactionKind: "standard" } });
  }

  return {
    async list(familyId: string, query: QueryOf<"transfers.list">) {
      const where: Prisma.TransferWhereInput = { familyId, ...(query.status ? { status: query.status } : {}), ...pairWhere(query) };
      const [rows, total] = await db.$transaction([
        db.transfer.findMany({
          where,
          include: TRANSFER_INCLUDE,
          orderBy: [{ createdAt: "desc" }, { id: "desc" }],
          ...pageWindow(query),
        }),
        db.transfer.count({ where }),
      ]);
      return { rows: rows.filter((row) => isComplete(row.inflow?.account, row.outflow?.account)), total };
    },

    get(familyId: string, id: string) {
      return find(db, familyId, id);
    },

    /**
     * A confirmed transfer as Sure's Transfer::Creator records it: an outflow from the source, an
     * inflow into the destination, each fee its own expense in the family's Fees category, and a
     * contribution to an investment account in Investment Contributions. Every account touched is resynced from its date.
     */
    async create(familyId: string, input: NewTransferBody) {
      // Here rather than in a handler: trades' deposits and withdrawals make transfers too.
      if (input.from_account_id === input.to_account_id) throw AppError.validation(["Source and destination accounts must differ"]);
      return db.$transaction(async (tx) => {
        const from = await findAccount(tx, familyId, input.from_account_id);
        const to = await findAccount(tx, familyId, input.to_account_id);
        const { amount, arriving, sourceFee, destinationFee } = transferAmountsOf(input, from, to);
        const date = dateOf(input.date);
        const kind = createdOutflowKindOf(from.accountType, to.accountType);
        const prefix = transferNamePrefixOf(to.accountType);
        const outflowName = input.name ?? `${prefix} to ${to.name}`;
        const inflowName = input.name ?? `${prefix} from ${from.name}`;
        const side = (account: { id: string; currency: string }, name: string, amountCents: bigint, extra: Prisma.EntryUncheckedCreateInput | object = {}) =>
          tx.entry.create({ data: { familyId, accountId: account.id, kind: "transaction", date, name, amountCents, currency: account.currency, ...extra } });
        const outflow = await side(from, outflowName, amount, {
          transactionKind: kind,
          categoryId: kind === "investment_contribution" ? await familyCategoryNamed(tx, familyId, INVESTMENT_CONTRIBUTIONS_CATEGORY) : null,
        });
        const inflow = await side(to, inflowName, -arriving, { transactionKind: "funds_movement" });
        const transfer = await tx.transfer.create({
          data: { familyId, inflowEntryId: inflow.id, outflowEntryId: outflow.id, status: "confirmed", notes: input.notes ?? null },
        });
        for (const [account, fee, name] of [
          [from, sourceFee, outflowName],
          [to, destinationFee, inflowName],
        ] as const) {
          if (fee === null || fee === 0n) continue;
          const feesCategory = await familyCategoryNamed(tx, familyId, FEES_CATEGORY);
          await side(account, `Transfer fee — ${name}`, fee, { transactionKind: "standard", categoryId: feesCategory, feeOfTransferId: transfer.id });
        }
        await requestAccountSync(tx, familyId, from.id, input.date);
        await requestAccountSync(tx, familyId, to.id, input.date);
        return find(tx, familyId, transfer.id);
      });
    },

    /** Confirms a proposed transfer and/or changes its notes. */
    async update(familyId: string, id: string, changes: TransferChanges) {
      return db.$transaction(async (tx) => {
        await find(tx, familyId, id);
        await tx.transfer.update({
          where: { id },
          data: { ...(changes.status === "confirmed" ? { status: "confirmed" } : {}), ...(changes.notes !== undefined ? { notes: changes.notes } : {}) },
        });
        return find(tx, familyId, id);
      });
    },

    /** Unlinks the pair and remembers it, so matching never proposes it again. */
    async reject(familyId: string, id: string) {
      await db.$transaction(async (tx) => {
        const current = await find(tx, familyId, id);
        await unlink(tx, familyId, current);
        await tx.rejectedTransfer.createMany({
          data: [{ familyId, inflowEntryId: current.inflowEntryId, outflowEntryId: current.outflowEntryId }],
          skipDuplicates: true,
        });
      });
    },

    async delete(familyId: string, id: string) {
      await db.$transaction(async (tx) => unlink(tx, familyId, await find(tx, familyId, id)));
    },

    async listRejected(familyId: string, query: QueryOf<"rejectedTransfers.list">) {
      const where: Prisma.RejectedTransferWhereInput = { familyId, ...pairWhere(query) };
      const [rows, total] = await db.$transaction([
        db.rejectedTransfer.findMany({
          where,
          include: PAIR_INCLUDE,
          orderBy: [{ createdAt: "desc" }, { id: "desc" }],
          ...pageWindow(query),
        }),
        db.rejectedTransfer.count({ where }),
      ]);
      return { rows: rows.filter((row) => isComplete(row.inflow?.account, row.outflow?.account)), total };
    },

    async getRejected(familyId: string, id: string): Promise<RejectedTransferRow> {
      const row = await db.rejectedTransfer.findFirst({ where: { id, familyId, inflow: VISIBLE_SIDE, outflow: VISIBLE_SIDE }, include: PAIR_INCLUDE });
      if (!row || !isComplete(row.inflow?.account, row.outflow?.account)) throw AppError.notFound("Rejected transfer");
      return row;
    },
  };
}
export type TransferRepository = ReturnType<typeof createTransferRepository>;
