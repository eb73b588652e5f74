import { Prisma } from "../generated/prisma/client";
import { csvRow } from "./csv-cell";
import { afterDateAndId, countRows, exportedAccount, keysetBatches, type ExportScope } from "./export-scope";
import { amountText, numericText } from "./sure-values";

export interface TradeRow {
  id: string;
  account_id: string;
  account_name: string;
  date: string;
  /** The entry's amount: qty x price plus the fee, in the entry's currency. */
  amount_cents: bigint;
  entry_currency: string;
  security_id: string;
  ticker: string;
  security_name: string | null;
  exchange_operating_mic: string | null;
  /** numeric text, signed (sells negative). */
  qty: string;
  price: string;
  currency: string;
  created_at: Date;
  updated_at: Date;
}

/** The family's trades with their securities, in date order (the entries' list index). */
export const tradeBatches = (scope: ExportScope, part: string) =>
  keysetBatches<TradeRow>(
    scope,
    part,
    (after, limit) => Prisma.sql`
      SELECT e.id::text AS id, e.account_id::text AS account_id, a.name AS account_name, e.date::text AS date,
             e.amount_cents, e.currency AS entry_currency,
             s.id::text AS security_id, s.ticker, s.name AS security_name, s.exchange_operating_mic,
             tr.qty::text AS qty, tr.price::text AS price, tr.currency, tr.created_at, tr.updated_at
        FROM entries e
        JOIN accounts a ON a.id = e.account_id
        JOIN trades tr ON tr.entry_id = e.id AND tr.family_id = e.family_id
        JOIN securities s ON s.id = tr.security_id AND s.family_id = e.family_id
       WHERE e.family_id = ${scope.familyId}::uuid AND e.kind = 'trade' AND ${exportedAccount("a", scope.familyId)}
             ${afterDateAndId("e", after)}
       ORDER BY e.date, e.id
       LIMIT ${limit}`,
  );

export const TRADES_CSV_HEADER = ["date", "account_name", "ticker", "quantity", "price", "amount", "currency"] as const;

/** trades.csv: Sure's columns; quantity and price as BigDecimal prints them ("10.0"), the currency the trade's. */
export async function* tradesCsv(scope: ExportScope): AsyncGenerator<string> {
  yield csvRow(TRADES_CSV_HEADER);
  for await (const rows of tradeBatches(scope, "trades.csv")) {
    countRows(scope, "trades.csv", rows.length);
    yield rows
      .map((t) =>
        csvRow([t.date, t.account_name, t.ticker, numericText(t.qty), numericText(t.price), amountText(t.amount_cents, t.entry_currency), t.currency]),
      )
      .join("");
  }
}
