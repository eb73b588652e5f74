import type { FinanceTx } from "../../db";

/** Per account name of the staged rows (a QIF file's sections): the rows written, and those skipped as duplicates. */
export async function stagedCountsByAccount(tx: FinanceTx): Promise<{ name: string; written: number; skipped: number }[]> {
  return tx.$queryRaw<{ name: string; written: number; skipped: number }[]>`
    SELECT COALESCE(account_name, '') AS name, count(entry_id)::int AS written, (count(*) - count(entry_id))::int AS skipped
      FROM import_stage GROUP BY 1 ORDER BY 1`;
}
