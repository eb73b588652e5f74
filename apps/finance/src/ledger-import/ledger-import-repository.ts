import { AppError } from "@hearth/contracts";
import { isUniqueViolation } from "@hearth/service-kit";
import type { FinanceDb } from "../db";
import { assertEntriesOwned, assertOwned, assertTransferSides, assertValuationDaysFree, type Import } from "./ledger-import-checks";

/** Ids the caller chose that exist already, or an entry linked twice (the matcher may have paired it meanwhile): a 422, never a 500. */
async function uniqueRows<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw AppError.validation(["An entry or transfer of the import exists already"]);
    throw err;
  }
}

/**
 * Bulk history in one transaction: arrays unnested into one statement per table, so a million
 * entries take seconds rather than the hours single requests would. Nothing is half-written:
 * a bad id anywhere refuses the whole call.
 */
export function createLedgerImportRepository(db: FinanceDb) {
  return {
    async write(familyId: string, data: Import) {
      return uniqueRows(() =>
        db.$transaction(
          async (tx) => {
            await assertOwned(tx, familyId, data);
            await assertValuationDaysFree(tx, data.entries);
            const entries = data.entries;
            if (entries.length > 0) {
              const transaction = (e: (typeof entries)[number]) => (e.kind === "transaction" ? e : null);
              await tx.$executeRawUnsafe(
                `INSERT INTO entries (id, family_id, account_id, kind, date, name, amount_cents, currency, category_id, merchant_id, transaction_kind, valuation_kind, created_at, updated_at)
               SELECT t.id, $1::uuid, t.account_id, t.kind::"EntryKind", t.date, t.name, t.amount_cents, t.currency, t.category_id, t.merchant_id,
                      t.transaction_kind::"TransactionKind", t.valuation_kind::"ValuationKind", now(), now()
                 FROM unnest($2::uuid[], $3::uuid[], $4::text[], $5::date[], $6::text[], $7::bigint[], $8::text[], $9::uuid[], $10::uuid[], $11::text[], $12::text[])
                   AS t(id, account_id, kind, date, name, amount_cents, currency, category_id, merchant_id, transaction_kind, valuation_kind)`,
                familyId,
                entries.map((e) => e.id),
                entries.map((e) => e.account_id),
                entries.map((e) => e.kind),
                entries.map((e) => e.date),
                entries.map((e) => e.name),
                entries.map((e) => e.amount_cents.toString()),
                entries.map((e) => e.currency),
                entries.map((e) => transaction(e)?.category_id ?? null),
                entries.map((e) => transaction(e)?.merchant_id ?? null),
                entries.map((e) => transaction(e)?.transaction_kind ?? null),
                entries.map((e) => (e.kind === "valuation" ? e.valuation_kind : null)),
              );
            }
            await assertEntriesOwned(
              tx,
              familyId,
              data.entry_tags.map((t) => t.entry_id),
            );
            await assertTransferSides(tx, familyId, data.transfers);
            let tagged = 0;
            if (data.entry_tags.length > 0) {
              tagged = await tx.$executeRawUnsafe(
                `INSERT INTO entry_tags (entry_id, tag_id) SELECT * FROM unnest($1::uuid[], $2::uuid[]) ON CONFLICT DO NOTHING`,
                data.entry_tags.map((t) => t.entry_id),
                data.entry_tags.map((t) => t.tag_id),
              );
            }
            if (data.transfers.length > 0) {
              await tx.$executeRawUnsafe(
                `INSERT INTO transfers (id, family_id, inflow_entry_id, outflow_entry_id, status, created_at, updated_at)
               SELECT t.id, $1::uuid, t.inflow, t.outflow, 'confirmed', now(), now() FROM unnest($2::uuid[], $3::uuid[], $4::uuid[]) AS t(id, inflow, outflow)`,
                familyId,
                data.transfers.map((t) => t.id),
                data.transfers.map((t) => t.inflow_entry_id),
                data.transfers.map((t) => t.outflow_entry_id),
              );
            }
            return { entries: entries.length, entry_tags: tagged, transfers: data.transfers.length };
          },
          { timeout: 60_000 },
        ),
      );
    },

    /**
     * Fresh planner statistics of the entries after a large import, so the queries that follow (the
     * family sync's balances and transfer matching, the first list pages) are planned on the
     * entries' real size rather than on what autovacuum last saw. Only the entries: the few
     * transfers of a seeded family grow by thousands in that very sync.
     */
    async refreshStatistics() {
      await db.$executeRawUnsafe(`ANALYZE entries`);
    },
  };
}

export type LedgerImportRepository = ReturnType<typeof createLedgerImportRepository>;
