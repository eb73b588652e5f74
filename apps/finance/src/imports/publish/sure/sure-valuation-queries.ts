import type { FinanceTx } from "../../../db";
import type { SureValuationValues } from "../../ndjson";
import { centsColumn, column } from "./sure-publish-context";

/** Writes valuation entries under their new ids and their accounts', with the import's id, in the file's order. */
export async function insertValuations(
  tx: FinanceTx,
  familyId: string,
  importId: string,
  batch: readonly (SureValuationValues & { id: string; accountId: string })[],
): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO entries (id, family_id, account_id, kind, valuation_kind, date, name, amount_cents, currency, import_id, created_at, updated_at)
    SELECT t.id, ${familyId}::uuid, t.account_id, 'valuation', t.kind::"ValuationKind", t.date, t.name, t.amount_cents, t.currency, ${importId}::uuid, now(), now()
      FROM unnest(${column(batch, (v) => v.id)}::uuid[], ${column(batch, (v) => v.accountId)}::uuid[], ${column(batch, (v) => v.kind)}::text[],
                  ${column(batch, (v) => v.date)}::date[], ${column(batch, (v) => v.name)}::text[], ${centsColumn(batch, (v) => v.amount_cents)}::bigint[],
                  ${column(batch, (v) => v.currency)}::text[])
           WITH ORDINALITY AS t(id, account_id, kind, date, name, amount_cents, currency, ordinal)
     ORDER BY t.ordinal`;
}
