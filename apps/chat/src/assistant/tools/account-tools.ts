import type { FinanceClient } from "../../finance-client";
import type { ToolHandlers } from "./tool-handlers";
import { centsOfDecimal, readCapped } from "./tool-shapes";

/** get_accounts and get_balance_sheet: the family's accounts and what they add up to. */
export function accountTools(finance: FinanceClient): Pick<ToolHandlers, "get_accounts" | "get_balance_sheet"> {
  return {
    async get_accounts(args) {
      const { rows, total, truncated } = await readCapped(async (page, perPage) => {
        const answer = await finance.call("accounts.list", { page, per_page: perPage, include_disabled: args.include_disabled });
        return { rows: answer.accounts, total: answer.pagination.total_count };
      });
      return {
        accounts: rows.map((account) => ({
          id: account.id,
          name: account.name,
          account_type: account.account_type,
          subtype: account.subtype,
          classification: account.classification,
          status: account.status,
          currency: account.currency,
          balance: account.balance,
          balance_cents: account.balance_cents,
          institution_name: account.institution_name,
        })),
        total_count: total,
        truncated,
      };
    },

    async get_balance_sheet() {
      const sheet = await finance.call("balanceSheet.get", {});
      const pair = <N extends string>(name: N, money: { amount: string; currency: string; formatted: string }) =>
        ({ [name]: money.formatted, [`${name}_cents`]: centsOfDecimal(money.amount, money.currency) }) as { [K in N]: string } & {
          [K in `${N}_cents`]: number;
        };
      return {
        currency: sheet.currency,
        ...pair("net_worth", sheet.net_worth),
        ...pair("assets", sheet.assets),
        ...pair("liabilities", sheet.liabilities),
        missing_exchange_rates: sheet.missing_exchange_rates,
      };
    },
  };
}
