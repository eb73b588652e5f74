import { decimalOf, formatMoney, minorUnitDigits, type OutputOf } from "@hearth/contracts";

function moneyOf(cents: bigint, currency: string) {
  return { amount: decimalOf(cents, minorUnitDigits(currency)), currency, formatted: formatMoney(cents, currency) };
}

export interface BalanceSheetFigures {
  currency: string;
  assets: bigint;
  liabilities: bigint;
  /** Currencies left out for want of a rate into `currency`. */
  missing: string[];
  /** The accounts in those currencies. */
  unconverted: { id: string; currency: string }[];
}

export function toBalanceSheetResource(sheet: BalanceSheetFigures): OutputOf<"balanceSheet.get"> {
  return {
    currency: sheet.currency,
    net_worth: moneyOf(sheet.assets - sheet.liabilities, sheet.currency),
    assets: moneyOf(sheet.assets, sheet.currency),
    liabilities: moneyOf(sheet.liabilities, sheet.currency),
    missing_exchange_rates: sheet.missing.map((code) => ({
      from_currency: code,
      to_currency: sheet.currency,
      account_ids: sheet.unconverted.filter((account) => account.currency === code).map((account) => account.id),
    })),
  };
}
