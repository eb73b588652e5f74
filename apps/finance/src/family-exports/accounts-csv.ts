import { Prisma } from "../generated/prisma/client";
import { csvRow } from "./csv-cell";
import { afterId, countRows, exportedAccount, textBatches, type ExportScope } from "./export-scope";
import { accountableTypeSql, amountSql, csvLineSql, csvTimeSql } from "./sql-format";

/** The family's exported accounts by id (k0), with what accounts.csv and the Account records write. */
export const accountRows = (scope: ExportScope, after: string[] | null, limit: number): Prisma.Sql => Prisma.sql`
  SELECT a.id::text AS k0, a.id::text AS id, a.family_id::text AS family_id, a.name, a.account_type, a.subtype, a.classification::text AS classification,
         a.currency, a.status::text AS status, a.institution_name, a.institution_domain,
         a.balance_cents, a.cash_balance_cents, a.created_at, a.updated_at
    FROM accounts a
   WHERE ${exportedAccount("a", scope.familyId)} ${afterId("a.id", after)}
   ORDER BY a.id
   LIMIT ${limit}`;

export const ACCOUNTS_CSV_HEADER = ["id", "name", "type", "subtype", "balance", "currency", "created_at"] as const;

/** accounts.csv: Sure's columns, the type as Sure's Accountable class, the balance as a plain decimal. */
export async function* accountsCsv(scope: ExportScope): AsyncGenerator<string> {
  yield csvRow(ACCOUNTS_CSV_HEADER);
  const line = csvLineSql([
    Prisma.sql`r.id`,
    Prisma.sql`r.name`,
    accountableTypeSql(Prisma.sql`r.account_type`),
    Prisma.sql`r.subtype`,
    amountSql(Prisma.sql`r.balance_cents`, Prisma.sql`r.currency`),
    Prisma.sql`r.currency`,
    csvTimeSql(Prisma.sql`r.created_at`),
  ]);
  for await (const batch of textBatches(scope, "accounts.csv", 1, "", (after, limit) => ({ rows: accountRows(scope, after, limit), line }))) {
    countRows(scope, "accounts.csv", batch.rows);
    yield batch.text;
  }
}
