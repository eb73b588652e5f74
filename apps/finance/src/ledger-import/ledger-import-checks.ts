import { AppError, type LedgerImportSchema } from "@hearth/contracts";
import type { z } from "zod";
import type { FinanceTx } from "../db";
import { countOwned, countOwnedEntries, countTransfersOf, countValidTransferPairs, countValuationsOn } from "./ledger-import-check-queries";

// What ledger.import checks inside its transaction before it writes: it takes rows the public API
// would have refused otherwise, so each rule of those endpoints that the rows could break is here.

export type Import = Omit<z.output<typeof LedgerImportSchema>, "finish">;
type Transfer = Import["transfers"][number];

const distinct = (ids: (string | null)[]) => [...new Set(ids.filter((id): id is string => id !== null))];

/** Every id the rows name must be the family's own: the family comes from the signed actor, never from the rows. */
export async function assertOwned(tx: FinanceTx, familyId: string, data: Import): Promise<void> {
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

/** Entries the tags name: the family's own (written by this call or an earlier one). */
export async function assertEntriesOwned(tx: FinanceTx, familyId: string, entryIds: string[]): Promise<void> {
  const ids = distinct(entryIds);
  if (ids.length === 0) return;
  if ((await countOwnedEntries(tx, familyId, ids)) !== ids.length) throw AppError.validation(["Entry not found"]);
}

/** One valuation per account and day, as valuations.create keeps it: none already there, none twice in the call. */
export async function assertValuationDaysFree(tx: FinanceTx, entries: Import["entries"]): Promise<void> {
  const days = entries.filter((e) => e.kind === "valuation").map((e) => ({ account: e.account_id, date: e.date }));
  if (days.length === 0) return;
  const clash = AppError.validation(["A valuation already exists for this account on that date"]);
  if (new Set(days.map((d) => `${d.account}/${d.date}`)).size !== days.length) throw clash;
  if ((await countValuationsOn(tx, days)) > 0) throw clash;
}

/**
 * A transfer links an outflow (a transaction leaving one account: positive) to an inflow (a
 * transaction arriving in another: negative), each entry in one transfer at most, as transfers.create
 * makes them. Anything else would break the transfer resources (a negative outflow fails their schema).
 */
export async function assertTransferSides(tx: FinanceTx, familyId: string, transfers: Transfer[]): Promise<void> {
  if (transfers.length === 0) return;
  const sides = transfers.flatMap((t) => [t.outflow_entry_id, t.inflow_entry_id]);
  if (new Set(sides).size !== sides.length) throw AppError.validation(["An entry can be part of one transfer only"]);
  if ((await countTransfersOf(tx, familyId, sides)) > 0) throw AppError.validation(["An entry can be part of one transfer only"]);
  if ((await countValidTransferPairs(tx, familyId, transfers)) !== transfers.length) {
    throw AppError.validation(["A transfer links an outflow and an inflow, both transactions of the family, in two different accounts"]);
  }
}
