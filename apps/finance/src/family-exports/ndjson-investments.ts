import { Prisma } from "../generated/prisma/client";
import { afterDateAndId, exportedAccount, type ExportScope } from "./export-scope";
import { amountSql, jsonTimeSql, plainNumericSql } from "./sql-format";
import { recordSection } from "./sure-record";
import { tradeRows } from "./trades-csv";

/** Trade records: Sure's trade data with its security's identity; the entry's id is the trade's id and entry_id. */
export const tradeRecords = recordSection(
  "Trade",
  2,
  tradeRows,
  Prisma.sql`r.id, r.id AS entry_id, r.account_id, r.security_id, r.ticker, r.security_name, r.exchange_operating_mic, r.k0 AS date,
    ${plainNumericSql(Prisma.sql`r.qty`)} AS qty, ${plainNumericSql(Prisma.sql`r.price`)} AS price,
    ${amountSql(Prisma.sql`r.amount_cents`, Prisma.sql`r.entry_currency`)} AS amount, r.currency,
    ${jsonTimeSql(Prisma.sql`r.created_at`)} AS created_at, ${jsonTimeSql(Prisma.sql`r.updated_at`)} AS updated_at`,
);

/** Holdings with their securities by (date, id), the (family, date) index. */
const holdingRows = (scope: ExportScope, after: string[] | null, limit: number) => Prisma.sql`
  SELECT h.date::text AS k0, h.id::text AS k1, h.id::text AS id, h.account_id::text AS account_id, s.id::text AS security_id, s.ticker,
         s.name AS security_name, s.exchange_operating_mic, s.exchange_mic, s.exchange_acronym, s.country_code, s.kind::text AS kind,
         s.website_url, h.qty, h.price, h.amount_cents, h.currency, h.avg_cost, h.cost_basis_source
    FROM holdings h
    JOIN accounts a ON a.id = h.account_id
    JOIN securities s ON s.id = h.security_id AND s.family_id = h.family_id
   WHERE h.family_id = ${scope.familyId}::uuid AND ${exportedAccount("a", scope.familyId)} ${afterDateAndId("h", after)}
   ORDER BY h.date, h.id
   LIMIT ${limit}`;

/** Holding records: Sure's holding snapshot with its security; Hearth's average cost per unit is Sure's cost_basis. */
export const holdingRecords = recordSection(
  "Holding",
  2,
  holdingRows,
  Prisma.sql`r.id, r.account_id, r.security_id, r.ticker, r.security_name, r.exchange_operating_mic, r.exchange_mic, r.exchange_acronym,
    r.country_code, r.kind, r.website_url, r.k0 AS date, ${plainNumericSql(Prisma.sql`r.qty`)} AS qty, ${plainNumericSql(Prisma.sql`r.price`)} AS price,
    ${amountSql(Prisma.sql`r.amount_cents`, Prisma.sql`r.currency`)} AS amount, r.currency,
    ${plainNumericSql(Prisma.sql`r.avg_cost`)} AS cost_basis, r.cost_basis_source`,
);
