import { randomUUID } from "node:crypto";
import type { AccountType, LedgerImport, LedgerImportEntry } from "@hearth/contracts";

/** A generated history: exactly what finance's `ledger.import` takes, before it is cut into calls. */
export type SeedLedger = Required<Omit<LedgerImport, "finish">>;

export interface SeedAccount {
  id: string;
  type: AccountType;
  currency: string;
}

type TransactionKind = Extract<LedgerImportEntry, { kind: "transaction" }>["transaction_kind"];

export function emptyLedger(): SeedLedger {
  return { entries: [], entry_tags: [], transfers: [] };
}

/** A transaction of `cents` minor units (Sure's sign: positive leaves the account). */
export function transactionEntry(
  account: SeedAccount,
  date: string,
  name: string,
  cents: bigint,
  extra: { category_id?: string | null; merchant_id?: string | null; transaction_kind?: TransactionKind } = {},
): LedgerImportEntry {
  return {
    id: randomUUID(),
    account_id: account.id,
    kind: "transaction",
    transaction_kind: extra.transaction_kind ?? "standard",
    date,
    name,
    amount_cents: cents.toString(),
    currency: account.currency,
    category_id: extra.category_id ?? null,
    merchant_id: extra.merchant_id ?? null,
  };
}

/** A reconciliation: the account's value on `date`. */
export function valuationEntry(account: SeedAccount, date: string, name: string, cents: bigint): LedgerImportEntry {
  return {
    id: randomUUID(),
    account_id: account.id,
    kind: "valuation",
    valuation_kind: "reconciliation",
    date,
    name,
    amount_cents: cents.toString(),
    currency: account.currency,
  };
}

/** Both sides of a confirmed transfer, appended to `ledger`. */
export function addTransfer(
  ledger: SeedLedger,
  from: SeedAccount,
  to: SeedAccount,
  date: string,
  cents: bigint,
  name: string,
  outflowKind: TransactionKind,
): void {
  const outflow = transactionEntry(from, date, name, cents, { transaction_kind: outflowKind });
  const inflow = transactionEntry(to, date, name, -cents, { transaction_kind: "funds_movement" });
  ledger.entries.push(outflow, inflow);
  ledger.transfers.push({ id: randomUUID(), outflow_entry_id: outflow.id, inflow_entry_id: inflow.id });
}
