import { paginationOf } from "@hearth/contracts";
import type { RouteHandler } from "@hearth/service-kit";
import type { BalanceRepository } from "./balance-repository";
import { toBalanceResource } from "./balance-resource";
import { foreignCurrenciesOf, netWorthOf, ratesInto } from "./balance-sheet";
import type { BalanceSheetQueries } from "./balance-sheet-queries";
import { toBalanceSheetResource } from "./balance-sheet-resource";

export function createBalanceHandlers(balances: BalanceRepository, sheets: BalanceSheetQueries, familyCurrency: (familyId: string) => Promise<string>) {
  const list: RouteHandler<"balances.list"> = async ({ ctx, input }) => {
    const { rows, total } = await balances.list(ctx.actor.familyId, input);
    return { balances: rows.map(toBalanceResource), pagination: paginationOf(input, total) };
  };
  const get: RouteHandler<"balances.get"> = async ({ ctx, input }) => toBalanceResource(await balances.get(ctx.actor.familyId, input.id));
  /**
   * Net worth in the family currency: visible accounts summed per currency and class, converted
   * at the latest stored rate. A currency without a rate is left out and reported.
   */
  const sheet: RouteHandler<"balanceSheet.get"> = async ({ ctx }) => {
    const familyId = ctx.actor.familyId;
    const [currency, totals] = await Promise.all([familyCurrency(familyId), sheets.totals(familyId)]);
    const foreign = foreignCurrenciesOf(totals, currency);
    const rates = foreign.length > 0 ? ratesInto(await sheets.latestRates(familyId, foreign, currency), currency) : new Map<string, string>();
    const missing = foreign.filter((code) => !rates.has(code));
    const unconverted = missing.length > 0 ? await sheets.accountsIn(familyId, missing) : [];
    return toBalanceSheetResource({ currency, ...netWorthOf(totals, currency, rates), missing, unconverted });
  };
  return { "balances.list": list, "balances.get": get, "balanceSheet.get": sheet };
}
