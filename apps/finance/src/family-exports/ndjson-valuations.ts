import { Prisma } from "../generated/prisma/client";
import { afterDateAndId, exportedAccount, type ExportScope } from "./export-scope";
import { amountSql, jsonTimeSql } from "./sql-format";
import { recordSection } from "./sure-record";

const valuationRows = (scope: ExportScope, after: string[] | null, limit: number) => Prisma.sql`
  SELECT e.date::text AS k0, e.id::text AS k1, e.id::text AS id, e.account_id::text AS account_id, e.amount_cents, e.currency, e.name,
         coalesce(e.valuation_kind::text, 'reconciliation') AS kind, e.created_at, e.updated_at
    FROM entries e
    JOIN accounts a ON a.id = e.account_id
   WHERE e.family_id = ${scope.familyId}::uuid AND e.kind = 'valuation' AND ${exportedAccount("a", scope.familyId)}
         ${afterDateAndId("e", after)}
   ORDER BY e.date, e.id
   LIMIT ${limit}`;

/** Valuation records (opening and current anchors, reconciliations) in date order; the entry's id is the valuation's id and entry_id. */
export const valuationRecords = recordSection(
  "Valuation",
  2,
  valuationRows,
  Prisma.sql`r.id, r.id AS entry_id, r.account_id, r.k0 AS date, ${amountSql(Prisma.sql`r.amount_cents`, Prisma.sql`r.currency`)} AS amount,
    r.currency, r.name, r.kind, ${jsonTimeSql(Prisma.sql`r.created_at`)} AS created_at, ${jsonTimeSql(Prisma.sql`r.updated_at`)} AS updated_at`,
);
