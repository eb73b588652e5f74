import { AppError, pageWindow, type BodyOf, type QueryOf } from "@hearth/contracts";
import type { FinanceDb, FinanceTx } from "../db";
import type { Prisma } from "../generated/prisma/client";
import { findAccount } from "../accounts/account-repository";
import { isComplete } from "../ledger/complete-rows";
import { dateOf, dateRange } from "../ledger/dates";
import { adjustTransactionCount } from "../ledger/ledger-version";
import { requestAccountSync } from "../syncs/sync-queue-queries";
import { transferAmountsOf, type NewTransferBody } from "./transfer-amounts";
import { outflowKindOf } from "./transfer-kinds";

const SIDE = { include: { account: { select: { id: true, name: true, accountType: true } } } } as const;
const TRANSFER_INCLUDE = { inflow: SIDE, outflow: SIDE } as const satisfies Prisma.TransferInclude;
export type TransferRow = Prisma.TransferGetPayload<{ include: typeof TRANSFER_INCLUDE }>;
export type RejectedTransferRow = Prisma.RejectedTransferGetPayload<{ include: typeof TRANSFER_INCLUDE }>;

export type TransferChanges = Omit<BodyOf<"transfers.update">["transfer"], "status"> & { status?: "confirmed" | undefined };

const VISIBLE_SIDE = { account: { status: { not: "pending_deletion" } } } as const satisfies Prisma.EntryWhereInput;

/** Filters shared by transfers and rejected pairs: either side's account, the outflow's date. */
function pairWhere(query: QueryOf<"rejectedTransfers.list">) {
  return {
    inflow: VISIBLE_SIDE,
    outflow: {
      ...VISIBLE_SIDE,
      ...dateRange(query.start_date, query.end_date),
    },
    ...(query.account_id ? { OR: [{ inflow: { accountId: query.account_id } }, { outflow: { accountId: query.account_id } }] } : {}),
  };
}

export function createTransferRepository(db: FinanceDb) {
  async function find(tx: FinanceTx | FinanceDb, familyId: string, id: string): Promise<TransferRow> {
    const row = await tx.transfer.findFirst({ where: { id, familyId, inflow: VISIBLE_SIDE, outflow: VISIBLE_SIDE }, include: TRANSFER_INCLUDE });
    if (!row || !isComplete(row.inflow?.account, row.outflow?.account)) throw AppError.notFound("Transfer");
    return row;
  }

  /** Both sides become ordinary transactions again (the pair stays in the ledger). */
  async function unlink(tx: FinanceTx, transfer: { id: string; inflowEntryId: string; outflowEntryId: string }) {
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
          orderBy: [{ outflow: { date: "desc" } }, { id: "desc" }],
          ...pageWindow(query),
        }),
        db.transfer.count({ where }),
      ]);
      return { rows: rows.filter((row) => isComplete(row.inflow?.account, row.outflow?.account)), total };
    },

    get(familyId: string, id: string) {
      return find(db, familyId, id);
    },

    /** A confirmed transfer: an outflow from the source and an inflow into the destination, both accounts resynced from its date. */
    async create(familyId: string, input: NewTransferBody) {
      return db.$transaction(async (tx) => {
        const from = await findAccount(tx, familyId, input.from_account_id);
        const to = await findAccount(tx, familyId, input.to_account_id);
        const { amount, arriving, sourceFee, destinationFee } = transferAmountsOf(input, from, to);
        const date = dateOf(input.date);
        const outflow = await tx.entry.create({
          data: {
            familyId,
            accountId: from.id,
            kind: "transaction",
            transactionKind: outflowKindOf(to.accountType),
            date,
            name: input.name ?? `Transfer to ${to.name}`,
            amountCents: amount + (sourceFee ?? 0n),
            currency: from.currency,
          },
        });
        const inflow = await tx.entry.create({
          data: {
            familyId,
            accountId: to.id,
            kind: "transaction",
            transactionKind: "funds_movement",
            date,
            name: input.name ?? `Transfer from ${from.name}`,
            amountCents: -(arriving - (destinationFee ?? 0n)),
            currency: to.currency,
          },
        });
        const transfer = await tx.transfer.create({
          data: {
            familyId,
            inflowEntryId: inflow.id,
            outflowEntryId: outflow.id,
            status: "confirmed",
            notes: input.notes ?? null,
            sourceFeeCents: sourceFee,
            destinationFeeCents: destinationFee,
          },
        });
        await requestAccountSync(tx, familyId, from.id, input.date);
        await requestAccountSync(tx, familyId, to.id, input.date);
        await adjustTransactionCount(tx, familyId, 2);
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
        await unlink(tx, current);
        await tx.rejectedTransfer.createMany({
          data: [{ familyId, inflowEntryId: current.inflowEntryId, outflowEntryId: current.outflowEntryId }],
          skipDuplicates: true,
        });
      });
    },

    async delete(familyId: string, id: string) {
      await db.$transaction(async (tx) => unlink(tx, await find(tx, familyId, id)));
    },

    async listRejected(familyId: string, query: QueryOf<"rejectedTransfers.list">) {
      const where: Prisma.RejectedTransferWhereInput = { familyId, ...pairWhere(query) };
      const [rows, total] = await db.$transaction([
        db.rejectedTransfer.findMany({
          where,
          include: TRANSFER_INCLUDE,
          orderBy: [{ createdAt: "desc" }, { id: "desc" }],
          ...pageWindow(query),
        }),
        db.rejectedTransfer.count({ where }),
      ]);
      return { rows: rows.filter((row) => isComplete(row.inflow?.account, row.outflow?.account)), total };
    },

    async getRejected(familyId: string, id: string): Promise<RejectedTransferRow> {
      const row = await db.rejectedTransfer.findFirst({ where: { id, familyId, inflow: VISIBLE_SIDE, outflow: VISIBLE_SIDE }, include: TRANSFER_INCLUDE });
      if (!row || !isComplete(row.inflow?.account, row.outflow?.account)) throw AppError.notFound("Rejected transfer");
      return row;
    },
  };
}
export type TransferRepository = ReturnType<typeof createTransferRepository>;
