import type { FinanceTx } from "../db";
import { isoDateOf } from "../ledger/dates";
import type { StoredRate } from "./rate-book";

/** The family's stored rates between two currencies (either way round), oldest first: what a rate book is made from. */
export async function storedRatesBetween(tx: FinanceTx, familyId: string, from: string, to: string): Promise<StoredRate[]> {
  const rows = await tx.exchangeRate.findMany({
    where: {
      familyId,
      OR: [
        { fromCurrency: from, toCurrency: to },
        { fromCurrency: to, toCurrency: from },
      ],
    },
    orderBy: { date: "asc" },
  });
  return rows.map((row) => ({ date: isoDateOf(row.date), from: row.fromCurrency, rate: row.rate.toFixed() }));
}
