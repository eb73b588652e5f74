import { AppError, type LedgerImportSchema } from "@hearth/contracts";
import type { z } from "zod";
import type { FinanceTx } from "../db";

// What ledger.import checks inside its transaction before it writes: it takes rows the public API
// would have refused otherwise, so each rule of those endpoints that the rows could break is here.

export type Import = Omit<z.output<typeof LedgerImportSchema>, "finish">;
type Transfer = Import["transfers"][number];

const distinct = (ids: (string | null)[]) => [...new Set(ids.filter((id): id is string => id !== null))];

/** How many of `ids` (distinct) are rows of `table` in the family: an id of another family or none at all is refused. */
async function countOwned(tx: FinanceTx, table: "accounts" | "categories" | "merchants" | "tags", familyId: string, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  // `table` is one of four literals, never input; every value is a bound parameter.
  const [row] = await tx.$queryRawUnsafe<{ n: bigint }[]>(
    `SELECT count(*) AS n FROM ${table} WHERE family_id = $1::uuid AND id = ANY($2::uuid[])${table === "accounts" ? " AND status <> 'pending_deletion'" : ""}`,
    familyId,
    ids,
  );
  return Number(row?.n ?? 0);
}

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
  const [row] = await tx.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM entries WHERE family_id = ${familyId}::uuid AND id = ANY(${ids}::uuid[])`;
  if (Number(row?.n ?? 0) !== ids.length) throw AppError.validation(["Entry not found"]);
}

/** One valuation per account and day, as valuations.create keeps it: none already there, none twice in the call. */
export async function assertValuationDaysFree(tx: FinanceTx, entries: Import["entries"]): Promise<void> {
  const days = entries.filter((e) => e.kind === "valuation").map((e) => ({ account: e.account_id, date: e.date }));
  if (days.length === 0) return;
  const clash = AppError.validation(["A valuation already exists for this account on that date"]);
  if (new Set(days.map((d) => `${d.account}/${d.date}`)).size !== days.length) throw clash;
  const [row] = await tx.$queryRaw<{ n: bigint }[]>`
    SELECT count(*) AS n FROM entries e
      JOIN unnest(${days.map((d) => d.account)}::uuid[], ${days.map((d) => d.date)}::date[]) AS v(account_id, date)
        ON e.account_id = v.account_id AND e.date = v.date
     WHERE e.kind = 'valuation'`;
  if (Number(row?.n ?? 0) > 0) throw clash;
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
  const [taken] = await tx.$queryRaw<{ n: bigint }[]>`
    SELECT count(*) AS n FROM transfers
     WHERE family_id = ${familyId}::uuid AND (inflow_entry_id = ANY(${sides}::uuid[]) OR outflow_entry_id = ANY(${sides}::uuid[]))`;
  if (Number(taken?.n ?? 0) > 0) throw AppError.validation(["An entry can be part of one transfer only"]);
  const [valid] = await tx.$queryRaw<{ n: bigint }[]>`
    SELECT count(*) AS n
      FROM unnest(${transfers.map((t) => t.outflow_entry_id)}::uuid[], ${transfers.map((t) => t.inflow_entry_id)}::uuid[]) AS t(outflow, inflow)
      JOIN entries o ON o.id = t.outflow AND o.family_id = ${familyId}::uuid AND o.kind = 'transaction' AND o.amount_cents > 0
      JOIN entries i ON i.id = t.inflow AND i.family_id = ${familyId}::uuid AND i.kind = 'transaction' AND i.amount_cents < 0
     WHERE o.account_id <> i.account_id`;
  if (Number(valid?.n ?? 0) !== transfers.length) {
    throw AppError.validation(["A transfer links an outflow and an inflow, both transactions of the family, in two different accounts"]);
  }
}
