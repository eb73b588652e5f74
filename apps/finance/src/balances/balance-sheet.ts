import { decimalOf, formatMoney, minorUnitDigits } from "@hearth/contracts";
import type { FinanceDb } from "../db";
import { loadRateBook, MissingExchangeRate } from "../exchange-rates/rate-book";
import { todayIso } from "../ledger/dates";

function moneyOf(cents: bigint, currency: string) {
  return { amount: decimalOf(cents, minorUnitDigits(currency)), currency, formatted: formatMoney(cents, currency) };
}

/**
 * Net worth in the family currency: visible accounts (active and draft) summed per currency and
 * class, converted at the latest stored rate. A currency without a rate is left out and reported.
 */
export async function balanceSheetOf(db: FinanceDb, familyId: string, familyCurrency: string) {
  const groups = await db.account.groupBy({
    by: ["currency", "classification"],
    where: { familyId, status: { in: ["active", "draft"] } },
    _sum: { balanceCents: true },
  });
  const today = todayIso();
  let assets = 0n;
  let liabilities = 0n;
  const missing = new Map<string, string[]>();
  for (const group of groups) {
    let cents = group._sum.balanceCents ?? 0n;
    if (group.currency !== familyCurrency) {
      try {
        cents = (await loadRateBook(db, familyId, group.currency, familyCurrency)).convert(cents, today);
      } catch (err) {
        if (!(err instanceof MissingExchangeRate)) throw err;
        missing.set(group.currency, []);
        continue;
      }
    }
    if (group.classification === "asset") assets += cents;
    else liabilities += cents;
  }
  if (missing.size > 0) {
    const accounts = await db.account.findMany({
      where: { familyId, status: { in: ["active", "draft"] }, currency: { in: [...missing.keys()] } },
      select: { id: true, currency: true },
      orderBy: { id: "asc" },
    });
    for (const account of accounts) missing.get(account.currency)!.push(account.id);
  }
  return {
    currency: familyCurrency,
    net_worth: moneyOf(assets - liabilities, familyCurrency),
    assets: moneyOf(assets, familyCurrency),
    liabilities: moneyOf(liabilities, familyCurrency),
    missing_exchange_rates: [...missing].map(([from, accountIds]) => ({ from_currency: from, to_currency: familyCurrency, account_ids: accountIds })),
  };
}
