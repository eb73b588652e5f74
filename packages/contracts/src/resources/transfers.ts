import { z } from "zod";
import { AmountInputSchema, CentsSchema } from "../money";
import { DateInputSchema, DateSchema, LedgerDateSchema, PageQuerySchema, PaginationSchema, TimestampSchema, UuidSchema } from "../primitives";

/** One side of a transfer (Sure's TransferTransactionSide); `id` and `entry_id` are the transaction's. */
export const TransferSideSchema = z.object({
  id: UuidSchema,
  entry_id: UuidSchema,
  date: DateSchema,
  amount: z.string(),
  amount_cents: CentsSchema,
  currency: z.string(),
  name: z.string(),
  kind: z.string(),
  account: z.object({ id: UuidSchema, name: z.string(), account_type: z.string().nullable() }),
});

/**
 * The spec's Transfer (Sure's TransferDecision plus notes and fees). As Sure's view writes it:
 * `date`, `amount` and `currency` are the inflow's (what arrived), and each fee is the sum of the
 * transfer's fee transactions in that account, a decimal such as "0.0" or "2.5" (BigDecimal "F").
 */
export const TransferSchema = z.object({
  id: UuidSchema,
  status: z.enum(["pending", "confirmed"]),
  date: DateSchema,
  amount: z.string(),
  amount_cents: CentsSchema.min(0),
  currency: z.string(),
  transfer_type: z.enum(["transfer", "liability_payment", "loan_payment"]),
  notes: z.string().nullable(),
  source_fee_amount: z.string(),
  source_fee_amount_cents: CentsSchema,
  source_fee_currency: z.string(),
  destination_fee_amount: z.string(),
  destination_fee_amount_cents: CentsSchema,
  destination_fee_currency: z.string(),
  inflow_transaction: TransferSideSchema,
  outflow_transaction: TransferSideSchema,
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
});
export type Transfer = z.infer<typeof TransferSchema>;

export const TransferCollectionSchema = z.object({ transfers: z.array(TransferSchema), pagination: PaginationSchema });

const DateRangeQuery = { account_id: UuidSchema.optional(), start_date: DateInputSchema.optional(), end_date: DateInputSchema.optional() };
export const TransferListQuerySchema = PageQuerySchema.extend({ status: z.enum(["pending", "confirmed"]).optional(), ...DateRangeQuery });
export const RejectedTransferListQuerySchema = PageQuerySchema.extend(DateRangeQuery);

const PositiveAmount = AmountInputSchema.refine((text) => !text.startsWith("-"), { message: "Amount must not be negative" });

/**
 * Records a transfer: an outflow from the source account and an inflow into the destination.
 * Between currencies, `destination_amount` is what arrives. Fees are their own expense
 * transactions in the family's Fees category, as Sure's Transfer::Creator books them:
 * `source_fee` in the source account, `destination_fee` in the destination account.
 */
export const CreateTransferBodySchema = z.object({
  transfer: z.object({
    from_account_id: UuidSchema,
    to_account_id: UuidSchema,
    amount: PositiveAmount,
    destination_amount: PositiveAmount.optional().describe("Required when the two accounts' currencies differ"),
    date: LedgerDateSchema,
    name: z.string().trim().min(1).max(500).optional(),
    notes: z.string().max(10_000).nullable().optional(),
    source_fee: PositiveAmount.optional(),
    destination_fee: PositiveAmount.optional(),
  }),
});

/** Confirm a proposed transfer, or reject it (the pair is then never proposed again). */
export const UpdateTransferBodySchema = z.object({
  transfer: z.object({
    status: z.enum(["confirmed", "rejected"]).optional(),
    notes: z.string().max(10_000).nullable().optional(),
  }),
});

export const RejectedTransferSchema = z.object({
  id: UuidSchema,
  inflow_transaction: TransferSideSchema,
  outflow_transaction: TransferSideSchema,
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
});
export const RejectedTransferCollectionSchema = z.object({ rejected_transfers: z.array(RejectedTransferSchema), pagination: PaginationSchema });
