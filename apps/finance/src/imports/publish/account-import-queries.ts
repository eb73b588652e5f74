import type { AccountType } from "@hearth/contracts";
import type { Classification } from "../../balances/balance-calculator";
import type { FinanceTx } from "../../db";
import { Prisma } from "../../generated/prisma/client";
import { risingIds } from "../../rules/rising-id-sql";

// The AccountImport publisher's statements, on its staging table (account_import_stage: a temp
// table dropped at commit, one row per valid import row).

/** What a type name of the file stands for, set on every row that names it. */
export interface StagedAccountType {
  name: string;
  accountType: AccountType;
  subtype: string | null;
  classification: Classification;
  /** The share of the opening balance that is cash (1 or 0). */
  cashShare: number;
}

/** Stages the import's valid rows; types and account ids are filled in later. */
export async function stageAccountRows(tx: FinanceTx, importId: string): Promise<void> {
  await tx.$executeRaw`
    CREATE TEMP TABLE account_import_stage ON COMMIT DROP AS
    SELECT r.row_number,
           r.values->>'account_type' AS type_name,
           r.values->>'name' AS name,
           (r.values->>'balance_cents')::bigint AS balance_cents,
           r.values->>'currency' AS currency,
           (r.values->>'balance_date')::date AS balance_date,
           NULL::"AccountType" AS account_type, NULL::text AS subtype, NULL::"AccountClassification" AS classification,
           NULL::bigint AS cash_share, NULL::uuid AS account_id
      FROM import_rows r
     WHERE r.import_id = ${importId}::uuid AND r.values IS NOT NULL`;
}

export async function stagedTypeNames(tx: FinanceTx): Promise<string[]> {
  const names = await tx.$queryRaw<{ type_name: string }[]>`SELECT DISTINCT type_name FROM account_import_stage ORDER BY 1`;
  return names.map((row) => row.type_name);
}

export async function setStagedTypes(tx: FinanceTx, mapped: readonly StagedAccountType[]): Promise<void> {
  await tx.$executeRaw`
    UPDATE account_import_stage s
       SET account_type = m.account_type::"AccountType", subtype = m.subtype,
           classification = m.classification::"AccountClassification", cash_share = m.cash_share
      FROM unnest(${mapped.map((m) => m.name)}::text[], ${mapped.map((m) => m.accountType)}::text[], ${mapped.map((m) => m.subtype)}::text[],
                  ${mapped.map((m) => m.classification)}::text[], ${mapped.map((m) => m.cashShare)}::bigint[])
           AS m(name, account_type, subtype, classification, cash_share)
     WHERE s.type_name = m.name`;
}

/** One account per name (case aside, as rows find accounts by name): the family's, else the first row's, which gets an id. */
export async function keepNewAccounts(tx: FinanceTx, familyId: string): Promise<void> {
  const ids = risingIds();
  await tx.$executeRaw`
    WITH kept AS (
      SELECT row_number, row_number() OVER (ORDER BY row_number) AS ordinal
        FROM (SELECT DISTINCT ON (lower(name)) row_number, name FROM account_import_stage ORDER BY lower(name), row_number) firsts
       WHERE NOT EXISTS (SELECT 1 FROM accounts a WHERE a.family_id = ${familyId}::uuid AND a.status <> 'pending_deletion' AND lower(a.name) = lower(firsts.name)))
    UPDATE account_import_stage s SET account_id = ${ids(Prisma.sql`k.ordinal`)} FROM kept k WHERE k.row_number = s.row_number`;
}

/** Writes the accounts of the rows given an id, with the import's id. */
export async function insertStagedAccounts(tx: FinanceTx, familyId: string, importId: string): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO accounts (id, family_id, name, account_type, subtype, classification, currency, status, balance_cents, cash_balance_cents, import_id, created_at, updated_at)
    SELECT account_id, ${familyId}::uuid, name, account_type, subtype, classification, currency, 'active', balance_cents, balance_cents * cash_share,
           ${importId}::uuid, now(), now()
      FROM account_import_stage WHERE account_id IS NOT NULL ORDER BY row_number`;
}

/** Writes each new account's opening-anchor valuation: on its row's date, else on `undatedOn`. */
export async function insertOpeningValuations(tx: FinanceTx, familyId: string, importId: string, undatedOn: string): Promise<void> {
  const valuationIds = risingIds();
  await tx.$executeRaw`
    INSERT INTO entries (id, family_id, account_id, kind, valuation_kind, date, name, amount_cents, currency, import_id, created_at, updated_at)
    SELECT ${valuationIds(Prisma.sql`row_number() OVER (ORDER BY row_number)`)}, ${familyId}::uuid, account_id, 'valuation', 'opening_anchor',
           COALESCE(balance_date, ${undatedOn}::date), 'Opening balance', balance_cents, currency, ${importId}::uuid, now(), now()
      FROM account_import_stage WHERE account_id IS NOT NULL ORDER BY row_number`;
}

/** The new accounts' ids, in row order. */
export async function newAccountIds(tx: FinanceTx): Promise<string[]> {
  const created = await tx.$queryRaw<{ account_id: string }[]>`
    SELECT account_id FROM account_import_stage WHERE account_id IS NOT NULL ORDER BY row_number`;
  return created.map((row) => row.account_id);
}

/** The last row number staged and how many rows were. */
export async function stagedAccountCounts(tx: FinanceTx): Promise<{ last: number; total: number }> {
  const [bounds] = await tx.$queryRaw<{ last: number | null; total: number }[]>`
    SELECT max(row_number) AS last, count(*)::int AS total FROM account_import_stage`;
  return { last: bounds?.last ?? 0, total: bounds?.total ?? 0 };
}
