import type { FinanceTx } from "../../../db";

/** The days each of the import's accounts has a valuation on (the file's, and the opening balances it made), as ISO dates. */
export async function importValuationDays(tx: FinanceTx, familyId: string, importId: string): Promise<Map<string, Set<string>>> {
  const rows = await tx.$queryRaw<{ account_id: string; days: string[] }[]>`
    SELECT account_id::text AS account_id, array_agg(DISTINCT date::text) AS days FROM entries
     WHERE family_id = ${familyId}::uuid AND import_id = ${importId}::uuid AND kind = 'valuation'
     GROUP BY account_id`;
  return new Map(rows.map((row) => [row.account_id, new Set(row.days)]));
}
