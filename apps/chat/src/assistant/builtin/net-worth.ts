import type { GetBalanceSheetResult } from "@hearth/contracts";
import type { Answer } from "./answer-text";
import { moneyText, type Wording } from "./format";
import { missingRatesSentence } from "./missing-rates";
import type { Tools } from "./tool-calls";

/** "Your net worth is $X: $A in assets and $L in liabilities." from get_balance_sheet's result. */
export function answerNetWorth(sheet: GetBalanceSheetResult, wording: Wording): Answer {
  const money = (cents: number) => moneyText(cents, sheet.currency, wording);
  return [
    `Your net worth is ${money(sheet.net_worth_cents)}: ${money(sheet.assets_cents)} in assets and ${money(sheet.liabilities_cents)} in liabilities.`,
    ...missingRatesSentence(sheet.missing_exchange_rates, "Accounts"),
  ];
}

export async function replyNetWorth(tools: Tools, wording: Wording): Promise<Answer> {
  return answerNetWorth(await tools.call("get_balance_sheet", {}), wording);
}
