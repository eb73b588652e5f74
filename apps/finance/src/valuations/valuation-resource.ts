import type { Valuation } from "@hearth/contracts";
import { toAccountSummary } from "../accounts/account-resource";
import { entryAmountOf } from "../ledger/money";
import type { ValuationRow } from "./valuation-repository";

export function toValuationResource(row: ValuationRow): Valuation {
  return {
    id: row.id,
    ...entryAmountOf(row),
    notes: row.notes,
    kind: row.valuationKind ?? "reconciliation",
    account: toAccountSummary(row.account),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
