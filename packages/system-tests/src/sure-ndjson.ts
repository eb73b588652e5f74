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
