import { AppError, type LedgerImportSchema } from "@hearth/contracts";
import { isUniqueViolation } from "@hearth/service-kit";
import type { z } from "zod";
import type { FinanceDb, FinanceTx } from "../db";
import { adjustTransactionCount, bumpLedgerVersion } from "../ledger/ledger-version";

type Import = Omit<z.output<typeof LedgerImportSchema>, "finish">;

/** How many of `ids` (distinct) are rows of `table` in the family: an id of another family or none at all is refused. */
async function countOwned(tx: FinanceTx, table: "accounts" | "categories" | "merchants" | "tags", familyId: string, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const [row] = await tx.$queryRawUnsafe<{ n: bigint }[]>(
    `SELECT count(*) AS n FROM ${table} WHERE family_id = $1::uuid AND id = ANY($2::uuid[])${table === "accounts" ? " AND status <> 'pending_deletion'" : ""}`,
    familyId,
    ids,
  );
  return Number(row?.n ?? 0);
}

const distinct = (ids: (string | null)[]) => [...new Set(ids.filter((id): id is string => id !== null))];

/** Every id the import names must be the family's own: the family comes from the signed actor, never from the rows. */
async function assertOwned(tx: FinanceTx, familyId: string, data: Import): Promise<void> {
  const checks = [
    ["accounts", distinct(data.entries.map((e) => e.account_id)), "Account not found"],
    ["categories", distinct(data.entries.map((e) => (e.kind === "transaction" ? e.category_id : null))), "Category not found"],
    ["merchants", distinct(data.entries.map((e) => (e.kind === "transaction" ? e.merchant_id : null))), "Merchant not found"],
    ["tags", distinct(data.entry_tags.map((t) => t.tag_id)), "Tag not found"],
  ] as const;
  for (const [table, ids, message] of checks) {
    if ((await countOwned(tx, table, familyId, ids)) !== ids.length) throw AppError.validation([message]);
  }
}

/** Entries of the family among `ids` (written by this call or an earlier one). */
async function countOwnedEntries(tx: FinanceTx, familyId: string, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const [row] = await tx.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM entries WHERE family_id = ${familyId}::uuid AND id = ANY(${ids}::uuid[])`;
  return Number(row?.n ?? 0);
}

/** Ids the caller chose that exist already, or an entry linked twice (the matcher may have paired it meanwhile): a 422, never a 500. */
async function uniqueRows<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw AppError.validation(["An entry or transfer of the import exists already, or an entry is already part of a transfer"]);
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
            const tagged = distinct(data.entry_tags.map((t) => t.entry_id));
            const linked = distinct(data.transfers.flatMap((t) => [t.outflow_entry_id, t.inflow_entry_id]));
            if ((await countOwnedEntries(tx, familyId, tagged)) !== tagged.length) throw AppError.validation(["Entry not found"]);
            if ((await countOwnedEntries(tx, familyId, linked)) !== linked.length) throw AppError.validation(["Entry not found"]);
            if (data.entry_tags.length > 0) {
              await tx.$executeRawUnsafe(
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
            await bumpLedgerVersion(tx, familyId);
            // Counted again by the next unfiltered list: cheaper than counting here on every call.
            await adjustTransactionCount(tx, familyId, null);
            return { entries: entries.length, entry_tags: data.entry_tags.length, transfers: data.transfers.length };
          },
          { timeout: 60_000 },
        ),
      );
    },

    /** Fresh planner statistics after a large import (outside any transaction: ANALYZE is database-wide work). */
    async refreshStatistics() {
      await db.$executeRawUnsafe(`ANALYZE entries, entry_tags, transfers`);
    },
  };
}

export type LedgerImportRepository = ReturnType<typeof createLedgerImportRepository>;
