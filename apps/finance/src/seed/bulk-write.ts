import type { FinanceDb } from "../db";
import { adjustTransactionCount, bumpLedgerVersion } from "../ledger/ledger-version";
import type { SeedLedger } from "./demo-ledger";

const BATCH = 20_000;

/**
 * Writes a generated ledger straight into the finance database (arrays unnested, 20,000 rows
 * a statement): a million entries take seconds, not the hours single requests would. The
 * family's accounts must exist; balances follow from a sync afterwards.
 */
export async function writeLedger(db: FinanceDb, familyId: string, ledger: SeedLedger, onProgress?: (written: number) => void): Promise<void> {
  for (let start = 0; start < ledger.entries.length; start += BATCH) {
    const batch = ledger.entries.slice(start, start + BATCH);
    await db.$executeRawUnsafe(
      `INSERT INTO entries (id, family_id, account_id, kind, date, name, amount_cents, currency, category_id, merchant_id, transaction_kind, valuation_kind, created_at, updated_at)
       SELECT t.id, $1::uuid, t.account_id, t.kind::"EntryKind", t.date, t.name, t.amount_cents, t.currency, t.category_id, t.merchant_id,
              t.transaction_kind::"TransactionKind", t.valuation_kind::"ValuationKind", now(), now()
         FROM unnest($2::uuid[], $3::uuid[], $4::text[], $5::date[], $6::text[], $7::bigint[], $8::text[], $9::uuid[], $10::uuid[], $11::text[], $12::text[])
           AS t(id, account_id, kind, date, name, amount_cents, currency, category_id, merchant_id, transaction_kind, valuation_kind)`,
      familyId,
      batch.map((e) => e.id),
      batch.map((e) => e.accountId),
      batch.map((e) => e.kind),
      batch.map((e) => e.date),
      batch.map((e) => e.name),
      batch.map((e) => e.amountCents.toString()),
      batch.map((e) => e.currency),
      batch.map((e) => e.categoryId),
      batch.map((e) => e.merchantId),
      batch.map((e) => e.transactionKind),
      batch.map((e) => e.valuationKind),
    );
    onProgress?.(start + batch.length);
  }
  for (let start = 0; start < ledger.entryTags.length; start += BATCH) {
    const batch = ledger.entryTags.slice(start, start + BATCH);
    await db.$executeRawUnsafe(
      `INSERT INTO entry_tags (entry_id, tag_id) SELECT * FROM unnest($1::uuid[], $2::uuid[]) ON CONFLICT DO NOTHING`,
      batch.map((t) => t.entryId),
      batch.map((t) => t.tagId),
    );
  }
  for (let start = 0; start < ledger.transfers.length; start += BATCH) {
    const batch = ledger.transfers.slice(start, start + BATCH);
    await db.$executeRawUnsafe(
      `INSERT INTO transfers (id, family_id, inflow_entry_id, outflow_entry_id, status, created_at, updated_at)
       SELECT t.id, $1::uuid, t.inflow, t.outflow, 'confirmed', now(), now() FROM unnest($2::uuid[], $3::uuid[], $4::uuid[]) AS t(id, inflow, outflow)`,
      familyId,
      batch.map((t) => t.id),
      batch.map((t) => t.inflowEntryId),
      batch.map((t) => t.outflowEntryId),
    );
  }
  await bumpLedgerVersion(db, familyId);
  await adjustTransactionCount(db, familyId, null);
  await db.$executeRawUnsafe(`ANALYZE entries`);
}
