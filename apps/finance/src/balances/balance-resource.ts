import type { Balance } from "@hearth/contracts";
import { toAccountRef } from "../accounts/account-resource";
import { isoDateOf } from "../ledger/dates";
import { pairOf } from "../ledger/money";
import type { BalanceRow } from "./balance-repository";

/** Every part of the day's arithmetic as a money pair; `balance` and `cash_balance` are the day's end. */
export function toBalanceResource(row: BalanceRow): Balance {
  const pair = <N extends string>(name: N, cents: bigint) => pairOf(name, cents, row.currency);
  return {
    id: row.id,
    date: isoDateOf(row.date),
    currency: row.currency,
    flows_factor: row.flowsFactor,
    ...pair("balance", row.endCashCents + row.endNonCashCents),
    ...pair("cash_balance", row.endCashCents),
    ...pair("start_cash_balance", row.startCashCents),
    ...pair("start_non_cash_balance", row.startNonCashCents),
    ...pair("start_balance", row.startCashCents + row.startNonCashCents),
    ...pair("cash_inflows", row.cashInflowsCents),
    ...pair("cash_outflows", row.cashOutflowsCents),
    ...pair("non_cash_inflows", row.nonCashInflowsCents),
    ...pair("non_cash_outflows", row.nonCashOutflowsCents),
    ...pair("net_market_flows", row.netMarketFlowsCents),
    ...pair("cash_adjustments", row.cashAdjustmentsCents),
    ...pair("non_cash_adjustments", row.nonCashAdjustmentsCents),
    ...pair("end_cash_balance", row.endCashCents),
    ...pair("end_non_cash_balance", row.endNonCashCents),
    ...pair("end_balance", row.endCashCents + row.endNonCashCents),
    account: toAccountRef(row.account),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
