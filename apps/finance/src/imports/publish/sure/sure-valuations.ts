import type { SureValuationValues } from "../../ndjson";
import { centsColumn, column, inBatches, type SurePublishContext } from "./sure-publish-context";

/**
 * import_valuations: each Valuation record an entry of kind valuation of its account (with the
 * import's id), its kind as the file has it (opening and current anchors, reconciliations). The
 * reader refused two of one account and day; an opening balance the import made precedes them all.
 */
export async function publishValuations(context: SurePublishContext, records: readonly SureValuationValues[]) {
  const { tx, familyId, importId } = context;
  const rows = records.map((record) => ({ ...record, id: context.newId(), accountId: context.ids.required("accounts", record.account_id, record.line) }));
  await inBatches(
    context,
    rows,
    (batch) =>
      tx.$executeRaw`
      INSERT INTO entries (id, family_id, account_id, kind, valuation_kind, date, name, amount_cents, currency, import_id, created_at, updated_at)
      SELECT t.id, ${familyId}::uuid, t.account_id, 'valuation', t.kind::"ValuationKind", t.date, t.name, t.amount_cents, t.currency, ${importId}::uuid, now(), now()
        FROM unnest(${column(batch, (v) => v.id)}::uuid[], ${column(batch, (v) => v.accountId)}::uuid[], ${column(batch, (v) => v.kind)}::text[],
                    ${column(batch, (v) => v.date)}::date[], ${column(batch, (v) => v.name)}::text[], ${centsColumn(batch, (v) => v.amount_cents)}::bigint[],
                    ${column(batch, (v) => v.currency)}::text[])
             WITH ORDINALITY AS t(id, account_id, kind, date, name, amount_cents, currency, ordinal)
       ORDER BY t.ordinal`,
  );
  return { valuations: rows.length };
}
