import { TickerInputSchema } from "@hearth/contracts";
import { QTY_SCALE, toScaled } from "../../holdings/fixed-point";
import { TRADE_PRICE_SCALE, tradeAmountCents } from "../../trades/trade-amounts";
import { roundDecimal } from "./number-format";
import { checkCurrency, checkDate, checkLength, checkRequired, readNumber } from "./row-checks";
import type { CandidateRow, RowContext, RowError, SourceRow, TradeRowValues } from "./row-types";
import { signedTradeQty } from "./signage";
import { quietNumber, readSureCells, sureFieldsOf } from "./sure-cells";

/** Whole digits Hearth's trades keep: a quantity below 10^12, a price below 10^9. */
const WHOLE_DIGITS = { qty: 12, price: 9 } as const;
const LIMITS = { name: 500, account: 200, mic: 20 } as const;

const wholeDigits = (decimal: string) => (decimal.replace("-", "").split(".")[0] ?? "").length;

/**
 * A TradeImport row: date, ticker, qty and price required (Sure's required_column_keys). The
 * quantity and price keep the scale of their columns (8 and 10 decimals, rounded half away from
 * zero as PostgreSQL's numeric does when Sure stores them). The quantity is signed per the
 * signage convention and the label and amount follow that sign; Sure stores the file's quantity
 * on the trade but signs only the amount, which disagree when inflows are negative.
 */
export function tradeRow(row: SourceRow, context: RowContext): CandidateRow<TradeRowValues> {
  const cells = readSureCells(row, context, "TradeImport");
  const errors: RowError[] = [];
  const qty = readNumber(cells.qty, context, "qty", "Qty", errors);
  const price = readNumber(cells.price, context, "price", "Price", errors);
  const fields = sureFieldsOf(cells, { amount: quietNumber(cells.amount, context), qty, price });

  const date = checkDate(cells.date, context, errors);
  checkRequired(cells.date, "date", "Date", errors);
  let ticker: string | null = null;
  if (checkRequired(cells.ticker, "ticker", "Ticker", errors)) {
    const parsed = TickerInputSchema.safeParse(cells.ticker);
    if (parsed.success) ticker = parsed.data;
    else errors.push({ field: "ticker", message: parsed.error.issues[0]?.message ?? "Ticker is invalid" });
  }
  if (!errors.some((error) => error.field === "qty")) checkRequired(qty, "qty", "Qty", errors);
  if (!errors.some((error) => error.field === "price")) checkRequired(price, "price", "Price", errors);
  if (qty !== "" && wholeDigits(qty) > WHOLE_DIGITS.qty) errors.push({ field: "qty", message: `Qty must be less than 10^${WHOLE_DIGITS.qty}` });
  if (price !== "" && wholeDigits(price) > WHOLE_DIGITS.price) errors.push({ field: "price", message: `Price must be less than 10^${WHOLE_DIGITS.price}` });
  if (price.startsWith("-")) errors.push({ field: "price", message: "Price must not be negative" });
  const currency = checkCurrency(cells.currency, errors);
  checkLength(cells.name, LIMITS.name, "name", "Name", errors);
  checkLength(cells.account, LIMITS.account, "account", "Account", errors);
  checkLength(cells.exchange_operating_mic, LIMITS.mic, "exchange_operating_mic", "Exchange operating mic", errors);

  if (errors.length > 0 || date === null || ticker === null || currency === null) return { row_number: row.rowNumber, fields, errors, values: null };
  const signedQty = signedTradeQty(roundDecimal(qty, QTY_SCALE), context.config);
  const unitPrice = roundDecimal(price, TRADE_PRICE_SCALE);
  let amountCents: bigint;
  try {
    amountCents = tradeAmountCents(toScaled(signedQty, QTY_SCALE), unitPrice, "0", currency);
  } catch {
    errors.push({ field: "qty", message: "Qty x price is too large" });
    return { row_number: row.rowNumber, fields, errors, values: null };
  }
  const sign = toScaled(signedQty, QTY_SCALE);
  return {
    row_number: row.rowNumber,
    fields,
    errors,
    values: {
      date,
      ticker,
      exchange_operating_mic: cells.exchange_operating_mic === "" ? null : cells.exchange_operating_mic.toUpperCase(),
      qty: signedQty,
      price: unitPrice,
      currency,
      amount_cents: amountCents,
      name: cells.name,
      account: cells.account,
      investment_activity_label: sign > 0n ? "Buy" : sign < 0n ? "Sell" : null,
    },
  };
}
