import { Prisma } from "../generated/prisma/client";
import { csvRow } from "./csv-cell";
import { accountableTypeSql, amountSql, csvTextSql, csvTimeSql } from "./export-format-sql";
import { exportedAccount } from "./export-rows-sql";
import { csvRows, type ExportScope } from "./export-scope";

/** The family's exported accounts by id, with what accounts.csv and the Account records write. */
export const accountRows = (scope: ExportScope): Prisma.Sql => Prisma.sql`
  SELECT a.id::text AS id, a.family_id::text AS family_id, a.name, a.account_type, a.subtype, a.classification::text AS classification,
         a.currency, a.status::text AS status, a.institution_name, a.institution_domain, a.notes,
         a.balance_cents, a.cash_balance_cents, a.created_at, a.updated_at
    FROM accounts a
   WHERE ${exportedAccount("a", scope.familyId)}
   ORDER BY a.id`;

export const ACCOUNTS_CSV_HEADER = ["id", "name", "type", "subtype", "balance", "currency", "created_at"] as const;

/** accounts.csv: Sure's columns, the type as Sure's Accountable class, the balance as a plain decimal; name and subtype guarded (csvTextSql). */
export async function* accountsCsv(scope: ExportScope): AsyncGenerator<string | Buffer> {
  yield csvRow(ACCOUNTS_CSV_HEADER);
  yield* csvRows(scope, "accounts.csv", accountRows(scope), [
    Prisma.sql`r.id`,
    csvTextSql(Prisma.sql`r.name`),
    accountableTypeSql(Prisma.sql`r.account_type`),
    csvTextSql(Prisma.sql`r.subtype`),
    amountSql(Prisma.sql`r.balance_cents`, Prisma.sql`r.currency`),
    Prisma.sql`r.currency`,
    csvTimeSql(Prisma.sql`r.created_at`),
  ]);
}
