import { Prisma } from "../generated/prisma/client";
import { csvRow } from "./csv-cell";
import { amountSql, csvTextSql, plainNumericSql } from "./export-format-sql";
import { exportedAccount } from "./export-rows-sql";
import { csvRows, type ExportScope } from "./export-scope";

/**
 * The family's trades with their securities in date order, keyed (date, id) as the entries' list
 * index. The entry's amount is qty x price plus the fee, in the entry's currency; qty is signed.
 */
export const tradeRows = (scope: ExportScope): Prisma.Sql => Prisma.sql`
  SELECT e.date::text AS date, e.id::text AS id, e.account_id::text AS account_id, a.name AS account_name,
         e.amount_cents, e.currency AS entry_currency,
         s.id::text AS security_id, s.ticker, s.name AS security_name, s.exchange_operating_mic,
         tr.qty, tr.price, tr.currency, tr.created_at, tr.updated_at
    FROM entries e
    JOIN accounts a ON a.id = e.account_id
    JOIN trades tr ON tr.entry_id = e.id AND tr.family_id = e.family_id
    JOIN securities s ON s.id = tr.security_id AND s.family_id = e.family_id
   WHERE e.family_id = ${scope.familyId}::uuid AND e.kind = 'trade' AND ${exportedAccount("a", scope.familyId)}
   ORDER BY e.date, e.id`;

export const TRADES_CSV_HEADER = ["date", "account_name", "ticker", "quantity", "price", "amount", "currency"] as const;

/**
 * trades.csv: Sure's columns; quantity and price as BigDecimal prints them ("10.0"), the currency
 * the trade's; the account name and ticker guarded (csvTextSql), the numbers never.
 */
export async function* tradesCsv(scope: ExportScope): AsyncGenerator<string | Buffer> {
  yield csvRow(TRADES_CSV_HEADER);
  yield* csvRows(scope, "trades.csv", tradeRows(scope), [
    Prisma.sql`r.date`,
    csvTextSql(Prisma.sql`r.account_name`),
    csvTextSql(Prisma.sql`r.ticker`),
    plainNumericSql(Prisma.sql`r.qty`),
    plainNumericSql(Prisma.sql`r.price`),
    amountSql(Prisma.sql`r.amount_cents`, Prisma.sql`r.entry_currency`),
    Prisma.sql`r.currency`,
  ]);
}
