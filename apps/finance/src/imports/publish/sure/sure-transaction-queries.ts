import type { FinanceTx } from "../../../db";
import type { SureTransactionKind } from "../../ndjson";
import { centsColumn, column } from "./sure-publish-context";

/** An entry a Transaction record (or a line of a split one) becomes, under the new ids of what it names. */
export interface TransactionEntry {
  id: string;
  accountId: string;
  date: string;
  amountCents: bigint;
  currency: string;
  name: string;
  notes: string | null;
  excluded: boolean;
  categoryId: string | null;
  merchantId: string | null;
  kind: SureTransactionKind;
  tagIds: string[];
}

/** Writes the entries with the import's id, in the given order (their tags apart: insertEntryTags). */
export async function insertTransactionEntries(tx: FinanceTx, familyId: string, importId: string, entries: readonly TransactionEntry[]): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO entries (id, family_id, account_id, kind, transaction_kind, date, name, amount_cents, currency, notes, excluded,
                         category_id, merchant_id, import_id, created_at, updated_at)
    SELECT t.id, ${familyId}::uuid, t.account_id, 'transaction', t.kind::"TransactionKind", t.date, t.name, t.amount_cents, t.currency, t.notes,
           t.excluded, t.category_id, t.merchant_id, ${importId}::uuid, now(), now()
      FROM unnest(${column(entries, (e) => e.id)}::uuid[], ${column(entries, (e) => e.accountId)}::uuid[], ${column(entries, (e) => e.kind)}::text[],
                  ${column(entries, (e) => e.date)}::date[], ${column(entries, (e) => e.name)}::text[], ${centsColumn(entries, (e) => e.amountCents)}::bigint[],
                  ${column(entries, (e) => e.currency)}::text[], ${column(entries, (e) => e.notes)}::text[], ${column(entries, (e) => e.excluded)}::boolean[],
                  ${column(entries, (e) => e.categoryId)}::uuid[], ${column(entries, (e) => e.merchantId)}::uuid[])
           WITH ORDINALITY AS t(id, account_id, kind, date, name, amount_cents, currency, notes, excluded, category_id, merchant_id, ordinal)
     ORDER BY t.ordinal`;
}

export async function insertEntryTags(tx: FinanceTx, tags: readonly { entryId: string; tagId: string }[]): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO entry_tags (entry_id, tag_id)
    SELECT * FROM unnest(${column(tags, (t) => t.entryId)}::uuid[], ${column(tags, (t) => t.tagId)}::uuid[])
    ON CONFLICT DO NOTHING`;
}
