import { randomUUID } from "node:crypto";

/** A Sure NDJSON Account record line: a USD checking account of 100.00. */
export const accountLine = (id: string, name: string) =>
  JSON.stringify({
    type: "Account",
    data: { id, name, balance: "100.00", currency: "USD", accountable_type: "Depository", accountable: { subtype: "checking" } },
  });

/** A Sure NDJSON Transaction record line of 12.50 USD in `account` (a source id). */
export const transactionLine = (account: string, name: string) =>
  JSON.stringify({ type: "Transaction", data: { id: randomUUID(), account_id: account, date: "2026-03-01", amount: "12.50", currency: "USD", name } });

/** A Sure NDJSON record line of any type, as Family::DataExporter#generate_ndjson writes one. */
export const recordLine = (type: string, data: Record<string, unknown>) => JSON.stringify({ type, data });

/** A Sure Balance record line: an account's balance and cash balance at the end of a day (data_exporter.rb's Balance fields). */
export const balanceLine = (account: string, date: string, balance: string, cashBalance: string) =>
  recordLine("Balance", { id: randomUUID(), account_id: account, date, balance, cash_balance: cashBalance, currency: "USD", flows_factor: 1 });

/** A Sure Holding record line in USD (data_exporter.rb's Holding fields): `amount` is qty x price as Sure stores it. */
export const holdingLine = (
  account: string,
  holding: { ticker: string; date: string; qty: string; price: string; amount: string; cost_basis?: string; cost_basis_locked?: boolean },
) =>
  recordLine("Holding", {
    id: randomUUID(),
    account_id: account,
    security_id: `security-${holding.ticker}`,
    security_name: `${holding.ticker} fund`,
    currency: "USD",
    cost_basis_source: holding.cost_basis === undefined ? null : holding.cost_basis_locked ? "manual" : "calculated",
    security_locked: false,
    ...holding,
  });
