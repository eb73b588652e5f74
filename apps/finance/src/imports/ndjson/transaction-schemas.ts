import { z } from "zod";
import { TransactionKindSchema } from "@hearth/contracts";
import { centsIn, DecimalTextSchema } from "./amounts";
import {
  booleanSchema,
  enumOrFallback,
  ImportDateSchema,
  OptionalCurrencySchema,
  optionalEnumSchema,
  optionalNameSchema,
  OptionalSourceIdSchema,
  optionalTextSchema,
  SourceIdListSchema,
  SourceIdSchema,
} from "./field-schemas";
import { currencyOf, type ReadContext } from "./read-context";
import type { SureRejectedTransferValues, SureSplitLineValues, SureTransactionKind, SureTransactionValues, SureTransferValues } from "./record-values";
import { withSplitLineAliases, withSplitLinesAlias } from "./split-lines";

/** Hearth's limits (its transactions API refuses longer). */
const LIMITS = { name: 500, notes: 10_000, splitLines: 100 } as const;
const KINDS = TransactionKindSchema.options as [SureTransactionKind, ...SureTransactionKind[]];

const SplitLineSchema = z.preprocess(
  withSplitLineAliases,
  z.object({
    id: OptionalSourceIdSchema,
    amount: DecimalTextSchema,
    name: optionalNameSchema(LIMITS.name),
    category_id: OptionalSourceIdSchema,
    merchant_id: OptionalSourceIdSchema,
    merchant_id_provided: z.boolean(),
    notes: optionalTextSchema(LIMITS.notes),
    excluded: booleanSchema(false),
    tag_ids: SourceIdListSchema,
    tag_ids_provided: z.boolean(),
    kind: optionalEnumSchema(KINDS),
  }),
);

/**
 * A Transaction record as import_transactions reads it, with its split lines (importable_split_rows).
 * Amounts are as someone entered them: more decimals than the currency has is refused. The split
 * lines take the parent's currency (Sure's Entry#split! makes them so).
 */
export function transactionSchema(context: ReadContext) {
  return z.preprocess(
    withSplitLinesAlias,
    z
      .object({
        id: SourceIdSchema,
        account_id: SourceIdSchema,
        date: ImportDateSchema,
        amount: DecimalTextSchema,
        currency: OptionalCurrencySchema,
        name: optionalNameSchema(LIMITS.name),
        notes: optionalTextSchema(LIMITS.notes),
        excluded: booleanSchema(false),
        category_id: OptionalSourceIdSchema,
        merchant_id: OptionalSourceIdSchema,
        tag_ids: SourceIdListSchema,
        kind: optionalEnumSchema(KINDS),
        split_lines: z
          .array(SplitLineSchema)
          .max(LIMITS.splitLines, { message: `must hold at most ${LIMITS.splitLines} lines` })
          .optional(),
      })
      .transform((data, ctx): Omit<SureTransactionValues, "line"> => {
        const currency = currencyOf(context, data.currency, data.account_id);
        const amount = centsIn(data.amount, currency, "exact", ctx, ["amount"]);
        const splitLines = (data.split_lines ?? []).map((line, index): SureSplitLineValues | null => {
          const cents = centsIn(line.amount, currency, "exact", ctx, ["split_lines", index, "amount"]);
          if (cents === null) return null;
          return {
            source_id: line.id,
            amount_cents: cents,
            name: line.name ?? "Imported split",
            category_id: line.category_id,
            merchant_id: line.merchant_id,
            merchant_id_provided: line.merchant_id_provided,
            notes: line.notes,
            excluded: line.excluded,
            tag_ids: line.tag_ids_provided ? line.tag_ids : null,
            kind: line.kind,
          };
        });
        if (amount === null || splitLines.includes(null)) return z.NEVER;
        return {
          source_id: data.id,
          account_id: data.account_id,
          date: data.date,
          amount_cents: amount,
          currency,
          name: data.name ?? "Imported transaction",
          notes: data.notes,
          excluded: data.excluded,
          category_id: data.category_id,
          merchant_id: data.merchant_id,
          tag_ids: data.tag_ids,
          kind: data.kind ?? "standard",
          split_lines: splitLines as SureSplitLineValues[],
        };
      }),
  );
}

/** A Transfer record as import_transfers reads it: an unknown status is pending. */
export const TransferSchema = z
  .object({
    id: OptionalSourceIdSchema,
    inflow_transaction_id: SourceIdSchema,
    outflow_transaction_id: SourceIdSchema,
    status: enumOrFallback(["pending", "confirmed"], "pending"),
    notes: optionalTextSchema(LIMITS.notes),
  })
  .transform((data): Omit<SureTransferValues, "line"> => ({
    source_id: data.id,
    inflow_transaction_id: data.inflow_transaction_id,
    outflow_transaction_id: data.outflow_transaction_id,
    status: data.status,
    notes: data.notes,
  }));

/** A RejectedTransfer record: two transactions that are no transfer. */
export const RejectedTransferSchema = z
  .object({ id: OptionalSourceIdSchema, inflow_transaction_id: SourceIdSchema, outflow_transaction_id: SourceIdSchema })
  .transform((data): Omit<SureRejectedTransferValues, "line"> => ({
    source_id: data.id,
    inflow_transaction_id: data.inflow_transaction_id,
    outflow_transaction_id: data.outflow_transaction_id,
  }));
