import { decimalOf, formatMoney, minorUnitDigits } from "@hearth/contracts";
import type { FinanceDb } from "../db";
import { convertCents, inverseRate } from "../exchange-rates/convert";
import { dateOf, todayIso } from "../ledger/dates";

function moneyOf(cents: bigint, currency: string) {
  return { amount: decimalOf(cents, minorUnitDigits(currency)), currency, formatted: formatMoney(cents, currency) };
}

interface LatestRate {
  from_currency: string;
  to_currency: string;
  date: Date;
  rate: string;
}

/**
 * Today's rate from each of `currencies` into `target`: the latest stored one either way round
 * (a direct rate wins over an inverted one of the same day), all in one query.
 */
async function latestRatesInto(db: FinanceDb, familyId: string, currencies: string[], target: string): Promise<Map<string, string>> {
  const rows = await db.$queryRaw<LatestRate[]>`
    SELECT DISTINCT ON (from_currency, to_currency) from_currency, to_currency, date, rate::text AS rate
      FROM exchange_rates
     WHERE family_id = ${familyId}::uuid AND date <= ${dateOf(todayIso())}::date
       AND ((from_currency = ANY(${currencies}::text[]) AND to_currency = ${target}) OR (from_currency = ${target} AND to_currency = ANY(${currencies}::text[])))
     ORDER BY from_currency, to_currency, date DESC`;
  const best = new Map<string, { date: number; direct: boolean; rate: string }>();
  for (const row of rows) {
    const direct = row.to_currency === target;
    const currency = direct ? row.from_currency : row.to_currency;
    const candidate = { date: row.date.getTime(), direct, rate: direct ? row.rate : inverseRate(row.rate) };
    const known = best.get(currency);
    if (!known || candidate.date > known.date || (candidate.date === known.date && direct)) best.set(currency, candidate);
  }
  return new Map([...best].map(([currency, { rate }]) => [currency, rate]));
}

/**
 * Net worth in the family currency: visible accounts (active and draft) summed per currency and
 * class, converted at the latest stored rate. A currency without a rate is left out and reported.
 */
export async function balanceSheetOf(db: FinanceDb, familyId: string, familyCurrency: Promise<string>) {
  const visible = { familyId, status: { in: ["active" as const, "draft" as const] } };
  const [currency, groups] = await Promise.all([
    familyCurrency,
    db.account.groupBy({ by: ["currency", "classification"], where: visible, _sum: { balanceCents: true } }),
  ]);
  const foreign = [...new Set(groups.map((group) => group.currency).filter((code) => code !== currency))];
  const rates = foreign.length > 0 ? await latestRatesInto(db, familyId, foreign, currency) : new Map<string, string>();
  let assets = 0n;
  let liabilities = 0n;
  for (const group of groups) {
    const rate = rates.get(group.currency);
    if (group.currency !== currency && rate === undefined) continue;
    const sum = group._sum.balanceCents ?? 0n;
    const cents = rate === undefined ? sum : convertCents(sum, rate, group.currency, currency);
    if (group.classification === "asset") assets += cents;
    else liabilities += cents;
  }
  const missing = foreign.filter((code) => !rates.has(code));
  const missingAccounts =
    missing.length > 0
      ? await db.account.findMany({ where: { ...visible, currency: { in: missing } }, select: { id: true, currency: true }, orderBy: { id: "asc" } })
      : [];
  return {
    currency,
    net_worth: moneyOf(assets - liabilities, currency),
    assets: moneyOf(assets, currency),
    liabilities: moneyOf(liabilities, currency),
    missing_exchange_rates: missing.map((code) => ({
      from_currency: code,
      to_currency: currency,
      account_ids: missingAccounts.filter((account) => account.currency === code).map((account) => account.id),
    })),
  };
}
