import type { Classification } from "../../../balances/balance-calculator";
import type { FinanceTx } from "../../../db";
import type { SureAccountValues } from "../../ndjson";
import { centsColumn, column } from "./sure-publish-context";

/** The name Hearth gives an opening anchor (as accounts.create makes it). */
const OPENING_BALANCE_NAME = "Opening balance";

/** An opening-anchor valuation the import makes from an account's balance. */
export interface OpeningBalance {
  id: string;
  accountId: string;
  date: string;
  cents: bigint;
  currency: string;
}

/** Writes the file's accounts under their new ids, with the import's id, in the file's order. */
export async function insertAccounts(
  tx: FinanceTx,
  familyId: string,
  importId: string,
  batch: readonly (SureAccountValues & { id: string; classification: Classification })[],
): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO accounts (id, family_id, name, account_type, subtype, classification, currency, status, institution_name, institution_domain,
                          notes, balance_cents, cash_balance_cents, import_id, created_at, updated_at)
    SELECT t.id, ${familyId}::uuid, t.name, t.account_type::"AccountType", t.subtype, t.classification::"AccountClassification", t.currency,
           t.status::"AccountStatus", t.institution_name, t.institution_domain, t.notes, t.balance_cents, t.cash_balance_cents, ${importId}::uuid, now(), now()
      FROM unnest(${column(batch, (a) => a.id)}::uuid[], ${column(batch, (a) => a.name)}::text[], ${column(batch, (a) => a.account_type)}::text[],
                  ${column(batch, (a) => a.subtype)}::text[], ${column(batch, (a) => a.classification)}::text[],
                  ${column(batch, (a) => a.currency)}::text[], ${column(batch, (a) => a.status)}::text[],
                  ${column(batch, (a) => a.institution_name)}::text[], ${column(batch, (a) => a.institution_domain)}::text[],
                  ${column(batch, (a) => a.notes)}::text[],
                  ${centsColumn(batch, (a) => a.balance_cents)}::bigint[], ${centsColumn(batch, (a) => a.cash_balance_cents)}::bigint[])
           WITH ORDINALITY AS t(id, name, account_type, subtype, classification, currency, status, institution_name, institution_domain,
                                notes, balance_cents, cash_balance_cents, ordinal)
     ORDER BY t.ordinal`;
}

export async function insertOpeningBalances(tx: FinanceTx, familyId: string, importId: string, batch: readonly OpeningBalance[]): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO entries (id, family_id, account_id, kind, valuation_kind, date, name, amount_cents, currency, import_id, created_at, updated_at)
    SELECT t.id, ${familyId}::uuid, t.account_id, 'valuation', 'opening_anchor', t.date, ${OPENING_BALANCE_NAME}, t.cents, t.currency, ${importId}::uuid, now(), now()
      FROM unnest(${column(batch, (o) => o.id)}::uuid[], ${column(batch, (o) => o.accountId)}::uuid[], ${column(batch, (o) => o.date)}::date[],
                  ${centsColumn(batch, (o) => o.cents)}::bigint[], ${column(batch, (o) => o.currency)}::text[])
           AS t(id, account_id, date, cents, currency)`;
}
