import { z } from "zod";
import { answerWith } from "../route";
import { CentsSchema, trimTrailing } from "../money";
import {
  DateInputSchema,
  DateSchema,
  LedgerDateSchema,
  PageQuerySchema,
  PaginationSchema,
  RecordRefSchema,
  TimestampSchema,
  UuidSchema,
  listQuery,
} from "../primitives";
import { AccountSummarySchema, CurrencyInputSchema } from "./accounts";
import { SecurityRefSchema, TickerInputSchema } from "./securities";
import { TransactionSchema } from "./transactions";
import { TransferSchema } from "./transfers";

/** Sure's Transaction::ACTIVITY_LABELS, which trades share. */
export const ACTIVITY_LABELS = [
  "Buy",
  "Sell",
  "Sweep In",
  "Sweep Out",
  "Dividend",
  "Reinvestment",
  "Interest",
  "Fee",
  "Transfer",
  "Contribution",
  "Withdrawal",
  "Exchange",
  "Other",
] as const;
export const TRADE_TYPES = ["buy", "sell", "dividend", "deposit", "withdrawal", "interest"] as const;

/** The spec's Trade: qty and price as strings, the account with its status. */
export const TradeSchema = z.object({
  id: UuidSchema,
  date: DateSchema,
  amount: z.string(),
  amount_cents: CentsSchema,
  currency: z.string(),
  name: z.string(),
  notes: z.string().nullable(),
  /** Signed (sells negative), as Ruby prints a BigDecimal: "10.0", "-2.5". */
  qty: z.string(),
  /** The unit price, formatted in the trade's currency. */
  price: z.string(),
  investment_activity_label: z.string().nullable(),
  account: AccountSummarySchema,
  security: SecurityRefSchema.nullable(),
  category: z.object({ id: UuidSchema, name: z.string() }).nullable(),
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
});
export type Trade = z.infer<typeof TradeSchema>;

export const TradeCollectionSchema = z.object({ trades: z.array(TradeSchema), pagination: PaginationSchema });

export const TradeListQuerySchema = PageQuerySchema.extend({
  account_id: UuidSchema.optional(),
  account_ids: listQuery(UuidSchema).optional(),
  start_date: DateInputSchema.optional(),
  end_date: DateInputSchema.optional(),
});

const DECIMAL_TEXT = /^[+-]?\d{1,15}(\.\d{1,20})?$/;
/** Whole digits a field may have: a price's column holds 9, a quantity is kept to 12 (a trillion units). */
const wholeDigitsAtMost = (digits: number) => (text: string) => (text.replace(/^[+-]/u, "").split(".")[0] ?? "").length <= digits;

/**
 * A decimal as clients send it (a JSON number, as Sure's clients do, or text), kept as text so no
 * float touches it: at most 15 whole digits and `decimals` after the point.
 */
function decimalInput(field: string, decimals: number, invalid = `${field} must be a number`) {
  return z
    .union([z.number().finite(), z.string().trim().max(40)])
    .transform((value) => (typeof value === "number" ? plainNumberText(value) : value))
    .refine((text) => DECIMAL_TEXT.test(text), { message: invalid })
    .refine((text) => trimTrailing(text.split(".")[1] ?? "", "0").length <= decimals, { message: `${field} has at most ${decimals} decimal places` });
}

/** A JS number as plain decimal text: 1e-7 → "0.0000001". */
function plainNumberText(value: number): string {
  const text = String(value);
  if (!/e/i.test(text)) return text;
  const fixed = trimTrailing(value.toFixed(20), "0");
  return fixed.endsWith(".") ? fixed.slice(0, -1) : fixed;
}

const isPositive = (text: string) => !text.startsWith("-") && /[1-9]/.test(text);
const isNegative = (text: string) => text.startsWith("-") && /[1-9]/.test(text);

const Qty = decimalInput("qty", 8).refine(wholeDigitsAtMost(12), { message: "qty must be less than 10^12" });
const Price = decimalInput("price", 10).refine(wholeDigitsAtMost(9), { message: "price must be less than 10^9" });
/** Sure's parse_positive_amount! answers one message for a word, zero or a negative amount. */
const AMOUNT_INVALID = "Amount must be a valid number";
const Money = decimalInput("amount", 4, AMOUNT_INVALID);
const Fee = decimalInput("fee", 4).refine((text) => !isNegative(text), { message: "fee must not be negative" });
const Notes = z.string().max(10_000).nullable();
const Name = z.string().trim().min(1, { message: "Name can't be blank" }).max(500, { message: "Name is too long (maximum is 500 characters)" });
const Label = z.enum(ACTIVITY_LABELS, { message: `investment_activity_label must be one of: ${ACTIVITY_LABELS.join(", ")}` });

export const CreateTradeBodySchema = z.object({
  trade: z
    .object({
      account_id: RecordRefSchema,
      type: z
        .string()
        .trim()
        .toLowerCase()
        .pipe(z.enum(TRADE_TYPES, { message: "type must be 'buy', 'sell', 'dividend', 'deposit', 'withdrawal', or 'interest'" })),
      date: LedgerDateSchema,
      qty: Qty.optional(),
      price: Price.optional(),
      fee: Fee.optional(),
      amount: Money.optional(),
      currency: CurrencyInputSchema.optional().describe("Defaults to the account's currency"),
      security_id: RecordRefSchema.optional(),
      ticker: TickerInputSchema.optional(),
      manual_ticker: TickerInputSchema.optional(),
      investment_activity_label: Label.optional(),
      category_id: RecordRefSchema.optional(),
      transfer_account_id: RecordRefSchema.optional().describe("deposit/withdrawal: the other account; the trade becomes a transfer"),
    })
    .superRefine((trade, ctx) => {
      const fail = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
      const hasSecurity = trade.security_id !== undefined || trade.ticker !== undefined || trade.manual_ticker !== undefined;
      if (trade.type === "buy" || trade.type === "sell") {
        if (!hasSecurity) fail("security_id", "Provide security_id, ticker, or manual_ticker");
        if (trade.qty === undefined || !isPositive(trade.qty)) fail("qty", "qty must be present and positive");
        if (trade.price === undefined || !isPositive(trade.price)) fail("price", "price must be present and positive");
        return;
      }
      if (trade.type === "dividend" && !hasSecurity) fail("security_id", "Provide security_id, ticker, or manual_ticker");
      if (trade.amount === undefined)
        fail("amount", `amount must be present${trade.type === "interest" ? "" : ` for ${trade.type === "dividend" ? "dividend" : "deposit/withdrawal"}`}`);
      else if (!isPositive(trade.amount)) fail("amount", AMOUNT_INVALID);
    }),
});

/** The spec's rule 1 (every field optional), plus Sure's `type`/`nature` saying whether new qty is a sell. */
export const UpdateTradeBodySchema = z.object({
  trade: z.object({
    date: LedgerDateSchema.optional(),
    qty: Qty.refine(isPositive, { message: "qty must be greater than 0" }).optional(),
    price: Price.refine(isPositive, { message: "price must be greater than 0" }).optional(),
    name: Name.optional(),
    notes: Notes.optional(),
    currency: CurrencyInputSchema.optional(),
    investment_activity_label: Label.optional(),
    category_id: RecordRefSchema.nullable().optional(),
    type: z
      .string()
      .trim()
      .toLowerCase()
      .pipe(z.enum(["buy", "sell"], { message: "type must be 'buy' or 'sell'" }))
      .optional(),
    nature: z
      .string()
      .trim()
      .toLowerCase()
      .pipe(z.enum(["inflow", "outflow"], { message: "nature must be 'inflow' or 'outflow'" }))
      .optional(),
  }),
});

/** Buy, sell, dividend and interest answer the trade; a deposit or withdrawal the transaction, or the transfer when it names the other account. */
export const CreateTradeAnswerSchema = answerWith(z.union([TradeSchema, TransferSchema, TransactionSchema]), [201]);
