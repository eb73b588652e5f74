import { Prisma } from "../generated/prisma/client";
import { afterDateAndId, exportedAccount, keysetBatches, type ExportScope } from "./export-scope";
import type { RecordSection } from "./sure-record";
import { amountText, jsonTime } from "./sure-values";

interface ValuationRow {
  id: string;
  account_id: string;
  date: string;
  amount_cents: bigint;
  currency: string;
  name: string;
  kind: string | null;
  created_at: Date;
  updated_at: Date;
}

/** Valuation records (opening and current anchors, reconciliations), in date order; the entry's id is the valuation's id and entry_id. */
export async function* valuationRecords(scope: ExportScope): RecordSection {
  const batches = keysetBatches<ValuationRow>(
    scope,
    "all.ndjson:Valuation",
    (after, limit) => Prisma.sql`
      SELECT e.id::text AS id, e.account_id::text AS account_id, e.date::text AS date, e.amount_cents, e.currency, e.name,
             e.valuation_kind::text AS kind, e.created_at, e.updated_at
        FROM entries e
        JOIN accounts a ON a.id = e.account_id
       WHERE e.family_id = ${scope.familyId}::uuid AND e.kind = 'valuation' AND ${exportedAccount("a", scope.familyId)}
             ${afterDateAndId("e", after)}
       ORDER BY e.date, e.id
       LIMIT ${limit}`,
  );
  for await (const rows of batches) {
    yield rows.map((v) => ({
      type: "Valuation",
      data: {
        id: v.id,
        entry_id: v.id,
        account_id: v.account_id,
        date: v.date,
        amount: amountText(v.amount_cents, v.currency),
        currency: v.currency,
        name: v.name,
        kind: v.kind ?? "reconciliation",
        created_at: jsonTime(v.created_at),
        updated_at: jsonTime(v.updated_at),
      },
    }));
  }
}
