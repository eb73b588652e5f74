import { Prisma } from "../generated/prisma/client";
import { exportedAccount, type ExportScope } from "./export-scope";
import { amountSql, col, plainNumericSql, timestampFields, token, tokenCol } from "./sql-format";
import { recordSection } from "./sure-record";
import { tradeRows } from "./trades-csv";

/** Trade records: Sure's trade data with its security's identity; the entry's id is the trade's id and entry_id. */
export const tradeRecords = recordSection("Trade", tradeRows, {
  id: tokenCol("id"),
  entry_id: tokenCol("id"),
  account_id: tokenCol("account_id"),
  security_id: tokenCol("security_id"),
  ticker: col("ticker"),
  security_name: col("security_name"),
  exchange_operating_mic: col("exchange_operating_mic"),
  date: tokenCol("date"),
  qty: token(plainNumericSql(col("qty"))),
  price: token(plainNumericSql(col("price"))),
  amount: token(amountSql(col("amount_cents"), col("entry_currency"))),
  currency: col("currency"),
  ...timestampFields(),
});

/** Holdings with their securities by (date, id), the (family, date) index. */
const holdingRows = (scope: ExportScope) => Prisma.sql`
  SELECT h.date::text AS date, h.id::text AS id, h.account_id::text AS account_id, s.id::text AS security_id, s.ticker,
         s.name AS security_name, s.exchange_operating_mic, s.exchange_mic, s.exchange_acronym, s.country_code, s.kind::text AS kind,
         s.website_url, h.qty, h.price, h.amount_cents, h.currency, h.avg_cost, h.cost_basis_source
    FROM holdings h
    JOIN accounts a ON a.id = h.account_id
    JOIN securities s ON s.id = h.security_id AND s.family_id = h.family_id
   WHERE h.family_id = ${scope.familyId}::uuid AND ${exportedAccount("a", scope.familyId)}
   ORDER BY h.date, h.id`;

/** Holding records: Sure's holding snapshot with its security; Hearth's average cost per unit is Sure's cost_basis. */
export const holdingRecords = recordSection("Holding", holdingRows, {
  id: tokenCol("id"),
  account_id: tokenCol("account_id"),
  security_id: tokenCol("security_id"),
  ticker: col("ticker"),
  security_name: col("security_name"),
  exchange_operating_mic: col("exchange_operating_mic"),
  exchange_mic: col("exchange_mic"),
  exchange_acronym: col("exchange_acronym"),
  country_code: col("country_code"),
  kind: tokenCol("kind"),
  website_url: col("website_url"),
  date: tokenCol("date"),
  qty: token(plainNumericSql(col("qty"))),
  price: token(plainNumericSql(col("price"))),
  amount: token(amountSql(col("amount_cents"), col("currency"))),
  currency: col("currency"),
  cost_basis: token(plainNumericSql(col("avg_cost"))),
  cost_basis_source: col("cost_basis_source"),
});
