import type { AccountDetail, AccountSummary } from "@hearth/contracts";
import type { Account } from "../generated/prisma/client";
import { pairOf } from "../ledger/money";

export function toAccountDetail(row: Account): AccountDetail {
  return {
    id: row.id,
    name: row.name,
    ...pairOf("balance", row.balanceCents, row.currency),
    ...pairOf("cash_balance", row.cashBalanceCents, row.currency),
    currency: row.currency,
    classification: row.classification,
    account_type: row.accountType,
    subtype: row.subtype,
    status: row.status,
    institution_name: row.institutionName,
    institution_domain: row.institutionDomain,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function toAccountSummary(row: Pick<Account, "id" | "name" | "accountType" | "status">): AccountSummary {
  return { id: row.id, name: row.name, account_type: row.accountType, status: row.status };
}

/** The account as balances and transfer sides name it (Sure's BalanceAccount). */
export function toAccountRef(row: Pick<Account, "id" | "name" | "accountType">) {
  return { id: row.id, name: row.name, account_type: row.accountType };
}
