import { AppError, pageWindow, paginationOf, type PageQuery } from "@hearth/contracts";
import type { FinanceDb } from "../db";
import type { Prisma } from "../generated/prisma/client";
import { findAccount } from "../accounts/account-repository";
import { dateOf, dateRange } from "../ledger/dates";
import { centsIn } from "../ledger/money";
import { adjustTransactionCount } from "../ledger/ledger-version";
import { requestAccountSync, type SyncSignal } from "../syncs/sync-queue";
import { outflowKindOf } from "./transfer-kinds";
import { REJECTED_INCLUDE, TRANSFER_INCLUDE, toRejectedTransferResource, toTransferResource } from "./transfer-resource";
import { isComplete } from "../ledger/complete-rows";

type Tx = Prisma.TransactionClient;

export interface TransferQuery extends PageQuery {
  status?: "pending" | "confirmed" | undefined;
  account_id?: string | undefined;
  start_date?: string | undefined;
  end_date?: string | undefined;
}

export interface NewTransfer {
  from_account_id: string;
  to_account_id: string;
  amount: string;
  destination_amount?: string | undefined;
  date: string;
  name?: string | undefined;
  notes?: string | null | undefined;
  source_fee?: string | undefined;
  destination_fee?: string | undefined;
}

const VISIBLE_SIDE = { account: { status: { not: "pending_deletion" } } } as const satisfies Prisma.EntryWhereInput;

/** Filters shared by transfers and rejected pairs: either side's account, the outflow's date. */
function pairWhere(query: Omit<TransferQuery, "status">) {
  return {
    inflow: VISIBLE_SIDE,
    outflow: {
      ...VISIBLE_SIDE,
      ...dateRange(query.start_date, query.end_date),
    },
    ...(query.account_id ? { OR: [{ inflow: { accountId: query.account_id } }, { outflow: { accountId: query.account_id } }] } : {}),
  };
}

export function createTransferRepository(db: FinanceDb, signal: SyncSignal) {
  async function find(tx: Tx | FinanceDb, familyId: string, id: string) {
    const row = await tx.transfer.findFirst({ where: { id, familyId, inflow: VISIBLE_SIDE, outflow: VISIBLE_SIDE }, include: TRANSFER_INCLUDE });
    if (!row || !isComplete(row.inflow?.account, row.outflow?.account)) throw AppError.notFound("Transfer");
    return row;
  }

  /** Both sides become ordinary transactions again (the pair stays in the ledger). */
  async function unlink(tx: Tx, transfer: { id: string; inflowEntryId: string; outflowEntryId: string }) {
    await tx.transfer.delete({ where: { id: transfer.id } });
    await tx.entry.updateMany({ where: { id: { in: [transfer.inflowEntryId, transfer.outflowEntryId] } }, data: { transactionKind: "standard" } });
  }

  return {
    async list(familyId: string, query: TransferQuery) {
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
      return {
        transfers: rows.filter((row) => isComplete(row.inflow?.account, row.outflow?.account)).map(toTransferResource),
        pagination: paginationOf(query, total),
      };
    },

    async get(familyId: string, id: string) {
      return toTransferResource(await find(db, familyId, id));
    },

    /**
     * Records a confirmed transfer: the source pays `amount` plus its fee; the destination
     * receives `destination_amount` (the same amount within one currency) less its fee.
     */
    async create(familyId: string, input: NewTransfer) {
      if (input.from_account_id === input.to_account_id) throw AppError.validation(["Source and destination accounts must differ"]);
      const row = await db.$transaction(async (tx) => {
        const from = await findAccount(tx, familyId, input.from_account_id);
        const to = await findAccount(tx, familyId, input.to_account_id);
        const amount = centsIn(input.amount, from.currency);
        if (amount === 0n) throw AppError.validation(["Amount must be greater than 0"]);
        if (from.currency !== to.currency && input.destination_amount === undefined) {
          throw AppError.validation([`destination_amount is required between ${from.currency} and ${to.currency}`]);
        }
        const arriving = input.destination_amount === undefined ? amount : centsIn(input.destination_amount, to.currency, "Destination amount");
        if (from.currency === to.currency && arriving !== amount) throw AppError.validation(["destination_amount must equal amount within one currency"]);
        const sourceFee = input.source_fee === undefined ? null : centsIn(input.source_fee, from.currency, "Source fee");
        const destinationFee = input.destination_fee === undefined ? null : centsIn(input.destination_fee, to.currency, "Destination fee");
        if (destinationFee !== null && destinationFee >= arriving) throw AppError.validation(["Destination fee must be less than the amount received"]);

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
      signal.poke();
      return toTransferResource(row);
    },

    /** Confirm, reject (unlinked and remembered, never proposed again) or change the notes. */
    async update(familyId: string, id: string, input: { status?: "confirmed" | "rejected" | undefined; notes?: string | null | undefined }) {
      return db.$transaction(async (tx) => {
        const current = await find(tx, familyId, id);
        if (input.status === "rejected") {
          await unlink(tx, current);
          await tx.rejectedTransfer.createMany({
            data: [{ familyId, inflowEntryId: current.inflowEntryId, outflowEntryId: current.outflowEntryId }],
            skipDuplicates: true,
          });
          return { message: "Transfer rejected" };
        }
        await tx.transfer.update({
          where: { id },
          data: { ...(input.status === "confirmed" ? { status: "confirmed" } : {}), ...(input.notes !== undefined ? { notes: input.notes } : {}) },
        });
        return toTransferResource(await find(tx, familyId, id));
      });
    },

    async delete(familyId: string, id: string) {
      await db.$transaction(async (tx) => unlink(tx, await find(tx, familyId, id)));
    },

    async listRejected(familyId: string, query: Omit<TransferQuery, "status">) {
      const where: Prisma.RejectedTransferWhereInput = { familyId, ...pairWhere(query) };
      const [rows, total] = await db.$transaction([
        db.rejectedTransfer.findMany({
          where,
          include: REJECTED_INCLUDE,
          orderBy: [{ createdAt: "desc" }, { id: "desc" }],
          ...pageWindow(query),
        }),
        db.rejectedTransfer.count({ where }),
      ]);
      return {
        rejected_transfers: rows.filter((row) => isComplete(row.inflow?.account, row.outflow?.account)).map(toRejectedTransferResource),
        pagination: paginationOf(query, total),
      };
    },

    async getRejected(familyId: string, id: string) {
      const row = await db.rejectedTransfer.findFirst({ where: { id, familyId, inflow: VISIBLE_SIDE, outflow: VISIBLE_SIDE }, include: REJECTED_INCLUDE });
      if (!row || !isComplete(row.inflow?.account, row.outflow?.account)) throw AppError.notFound("Rejected transfer");
      return toRejectedTransferResource(row);
    },
  };
}
export type TransferRepository = ReturnType<typeof createTransferRepository>;
