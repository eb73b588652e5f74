import { z } from "zod";
import { CurrencyCodeSchema, MAX_AMOUNT_CENTS } from "../money";
import { LedgerDateSchema, UuidSchema } from "../primitives";
import { TransactionKindSchema } from "./transactions";

/**
 * A bulk write of ledger history (finance's internal `ledger.import`): what the demo seeder and
 * the benchmarks use to make years of entries in seconds. One call carries at most this many
 * rows of each kind: even with 255 three-byte characters in every name, its JSON stays under the
 * services' 1 MiB body limit (about 0.65 MiB).
 */
export const LEDGER_IMPORT_MAX_ROWS = 500;

/** Minor units as a decimal string (JSON has no 64-bit integers), within the ledger's bound. */
const ImportCentsSchema = z
  .string()
  .regex(/^-?\d{1,13}$/, { message: "must be an integer number of minor units" })
  .transform((text) => BigInt(text))
  .refine((cents) => cents >= -MAX_AMOUNT_CENTS && cents <= MAX_AMOUNT_CENTS, { message: "Amount is out of range" });

const TransactionEntry = z.object({
  kind: z.literal("transaction"),
  transaction_kind: TransactionKindSchema,
  category_id: UuidSchema.nullable(),
  merchant_id: UuidSchema.nullable(),
});
const ValuationEntry = z.object({ kind: z.literal("valuation"), valuation_kind: z.literal("reconciliation") });

/** One entry; the caller picks its id so tags and transfers of the same import can name it. */
export const LedgerImportEntrySchema = z.intersection(
  z.object({
    id: UuidSchema,
    account_id: UuidSchema,
    date: LedgerDateSchema,
    name: z.string().trim().min(1).max(255),
    amount_cents: ImportCentsSchema,
    currency: CurrencyCodeSchema,
  }),
  z.discriminatedUnion("kind", [TransactionEntry, ValuationEntry]),
);
export type LedgerImportEntry = z.input<typeof LedgerImportEntrySchema>;

export const LedgerImportSchema = z.object({
  entries: z.array(LedgerImportEntrySchema).max(LEDGER_IMPORT_MAX_ROWS),
  entry_tags: z.array(z.object({ entry_id: UuidSchema, tag_id: UuidSchema })).max(LEDGER_IMPORT_MAX_ROWS),
  /** Confirmed transfers between two entries already written (by this call or an earlier one). */
  transfers: z.array(z.object({ id: UuidSchema, outflow_entry_id: UuidSchema, inflow_entry_id: UuidSchema })).max(LEDGER_IMPORT_MAX_ROWS),
  /** The last call of an import: refreshes the planner's statistics, which a million new rows leave stale. */
  finish: z.boolean().default(false),
});
export type LedgerImport = z.input<typeof LedgerImportSchema>;

export const LedgerImportResultSchema = z.object({
  entries: z.number().int().min(0),
  entry_tags: z.number().int().min(0),
  transfers: z.number().int().min(0),
});
