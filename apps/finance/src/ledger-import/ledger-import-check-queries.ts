import type { FinanceTx } from "../db";

/** How many of `ids` (distinct) are the family's rows of `table` (an account being deleted is not). */
export async function countOwned(tx: FinanceTx, table: "accounts" | "categories" | "merchants" | "tags", familyId: string, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  // `table` is one of four literals, never input; every value is a bound parameter.
  const [row] = await tx.$queryRawUnsafe<{ n: bigint }[]>(
    `SELECT count(*) AS n FROM ${table} WHERE family_id = $1::uuid AND id = ANY($2::uuid[])${table === "accounts" ? " AND status <> 'pending_deletion'" : ""}`,
    familyId,
    ids,
  );
  return Number(row?.n ?? 0);
}

/** How many of `ids` (distinct) are the family's entries. */
export async function countOwnedEntries(tx: FinanceTx, familyId: string, ids: string[]): Promise<number> {
  const [row] = await tx.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM entries WHERE family_id = ${familyId}::uuid AND id = ANY(${ids}::uuid[])`;
  return Number(row?.n ?? 0);
}

/** How many valuations are stored on these accounts' days. */
export async function countValuationsOn(tx: FinanceTx, days: readonly { account: string; date: string }[]): Promise<number> {
  const [row] = await tx.$queryRaw<{ n: bigint }[]>`
    SELECT count(*) AS n FROM entries e
      JOIN unnest(${days.map((d) => d.account)}::uuid[], ${days.map((d) => d.date)}::date[]) AS v(account_id, date)
        ON e.account_id = v.account_id AND e.date = v.date
     WHERE e.kind = 'valuation'`;
  return Number(row?.n ?? 0);
}

/** How many of the family's transfers have one of these entries as a side. */
export async function countTransfersOf(tx: FinanceTx, familyId: string, sides: string[]): Promise<number> {
  const [taken] = await tx.$queryRaw<{ n: bigint }[]>`
    SELECT count(*) AS n FROM transfers
     WHERE family_id = ${familyId}::uuid AND (inflow_entry_id = ANY(${sides}::uuid[]) OR outflow_entry_id = ANY(${sides}::uuid[]))`;
  return Number(taken?.n ?? 0);
}

/** How many of the pairs are an outflow and an inflow, both transactions of the family, in two different accounts. */
export async function countValidTransferPairs(
  tx: FinanceTx,
  familyId: string,
  transfers: readonly { outflow_entry_id: string; inflow_entry_id: string }[],
): Promise<number> {
  const [valid] = await tx.$queryRaw<{ n: bigint }[]>`
    SELECT count(*) AS n
      FROM unnest(${transfers.map((t) => t.outflow_entry_id)}::uuid[], ${transfers.map((t) => t.inflow_entry_id)}::uuid[]) AS t(outflow, inflow)
      JOIN entries o ON o.id = t.outflow AND o.family_id = ${familyId}::uuid AND o.kind = 'transaction' AND o.amount_cents > 0
      JOIN entries i ON i.id = t.inflow AND i.family_id = ${familyId}::uuid AND i.kind = 'transaction' AND i.amount_cents < 0
     WHERE o.account_id <> i.account_id`;
  return Number(valid?.n ?? 0);
}
