import { Prisma } from "../generated/prisma/client";
import { amountSql, col, timestampFields, token, tokenCol } from "./export-format-sql";
import { exportedAccount } from "./export-rows-sql";
import type { ExportScope } from "./export-scope";
import { recordSection } from "./sure-record";

const valuationRows = (scope: ExportScope) => Prisma.sql`
  SELECT e.date::text AS date, e.id::text AS id, e.account_id::text AS account_id, e.amount_cents, e.currency, e.name,
         coalesce(e.valuation_kind::text, 'reconciliation') AS kind, e.created_at, e.updated_at
    FROM entries e
    JOIN accounts a ON a.id = e.account_id
   WHERE e.family_id = ${scope.familyId}::uuid AND e.kind = 'valuation' AND ${exportedAccount("a", scope.familyId)}
   ORDER BY e.date, e.id`;

/** Valuation records (opening and current anchors, reconciliations) in date order; the entry's id is the valuation's id and entry_id. */
export const valuationRecords = recordSection("Valuation", valuationRows, {
  id: tokenCol("id"),
  entry_id: tokenCol("id"),
  account_id: tokenCol("account_id"),
  date: tokenCol("date"),
  amount: token(amountSql(col("amount_cents"), col("currency"))),
  currency: col("currency"),
  name: col("name"),
  kind: tokenCol("kind"),
  ...timestampFields(),
});
