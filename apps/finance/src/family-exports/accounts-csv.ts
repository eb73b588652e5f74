import { Prisma } from "../generated/prisma/client";
import { csvRow } from "./csv-cell";
import { afterId, countRows, exportedAccount, keysetBatches, type ExportScope } from "./export-scope";
import { ACCOUNTABLE_TYPES, amountText, csvTime, type HearthAccountType } from "./sure-values";

export interface AccountRow {
  id: string;
  name: string;
  account_type: HearthAccountType;
  subtype: string | null;
  classification: string;
  currency: string;
  status: string;
  institution_name: string | null;
  institution_domain: string | null;
  balance_cents: bigint;
  cash_balance_cents: bigint;
  created_at: Date;
  updated_at: Date;
}

/** The family's exported accounts, by id. */
export const accountBatches = (scope: ExportScope, part: string) =>
  keysetBatches<AccountRow>(
    scope,
    part,
    (after, limit) => Prisma.sql`
      SELECT a.id::text AS id, a.name, a.account_type::text AS account_type, a.subtype, a.classification::text AS classification,
             a.currency, a.status::text AS status, a.institution_name, a.institution_domain,
             a.balance_cents, a.cash_balance_cents, a.created_at, a.updated_at
        FROM accounts a
       WHERE ${exportedAccount("a", scope.familyId)} ${afterId("a.id", after)}
       ORDER BY a.id
       LIMIT ${limit}`,
  );

export const ACCOUNTS_CSV_HEADER = ["id", "name", "type", "subtype", "balance", "currency", "created_at"] as const;

/** accounts.csv: Sure's columns, the type as Sure's Accountable class, the balance as a plain decimal. */
export async function* accountsCsv(scope: ExportScope): AsyncGenerator<string> {
  yield csvRow(ACCOUNTS_CSV_HEADER);
  for await (const rows of accountBatches(scope, "accounts.csv")) {
    countRows(scope, "accounts.csv", rows.length);
    yield rows
      .map((a) =>
        csvRow([a.id, a.name, ACCOUNTABLE_TYPES[a.account_type], a.subtype, amountText(a.balance_cents, a.currency), a.currency, csvTime(a.created_at)]),
      )
      .join("");
  }
}
