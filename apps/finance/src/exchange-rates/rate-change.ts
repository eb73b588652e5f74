import type { FinanceDb } from "../db";
import { dateOf } from "../ledger/dates";
import { requestAccountSync, type SyncSignal } from "../syncs/sync-queue";

/**
 * After a rate of `from`/`to` on `date` changes, the accounts holding entries converted with it
 * are recomputed from that date (their pending syncs merge, so a burst of rates costs one run).
 */
export function resyncOnRateChange(db: FinanceDb, signal: SyncSignal) {
  return async (familyId: string, rate: { from: string; to: string; date: string }) => {
    const pair = [rate.from, rate.to];
    const accounts = await db.$queryRaw<{ account_id: string }[]>`
      SELECT DISTINCT e.account_id FROM entries e JOIN accounts a ON a.id = e.account_id
       WHERE e.family_id = ${familyId}::uuid AND e.currency <> a.currency
         AND e.currency = ANY(${pair}) AND a.currency = ANY(${pair}) AND e.date >= ${dateOf(rate.date)}::date`;
    if (accounts.length === 0) return;
    await db.$transaction(async (tx) => {
      for (const { account_id } of accounts) await requestAccountSync(tx, familyId, account_id, rate.date);
    });
    signal.poke();
  };
}
