import type { FinanceTx } from "../../db";
import { Prisma } from "../../generated/prisma/client";
import { risingIds } from "../../rules/rising-id-sql";

/** A publisher's staging table: a temp table with `account_name` and `account_id`. */
export type AccountStage = "import_stage" | "trade_import_stage";

/** The family's account of this id unless pending deletion, share-locked for the transaction (it stays until commit); null when there is none. */
export async function liveAccountId(tx: FinanceTx, familyId: string, accountId: string): Promise<string | null> {
  const [live] = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM accounts WHERE id = ${accountId}::uuid AND family_id = ${familyId}::uuid AND status <> 'pending_deletion' FOR SHARE`;
  return live?.id ?? null;
}

/** Every staged row to this account. */
export async function stageOneAccount(tx: FinanceTx, stage: AccountStage, accountId: string): Promise<void> {
  await tx.$executeRaw`UPDATE ${Prisma.raw(stage)} SET account_id = ${accountId}::uuid`;
}

/** Each staged row not yet given one to the family's account of its name, any case: the oldest of a name, as the list shows it first. */
export async function stageAccountsByName(tx: FinanceTx, stage: AccountStage, familyId: string): Promise<void> {
  await tx.$executeRaw`
    UPDATE ${Prisma.raw(stage)} s SET account_id = a.id
      FROM (SELECT DISTINCT ON (lower(name)) id, lower(name) AS key FROM accounts
             WHERE family_id = ${familyId}::uuid AND status <> 'pending_deletion' ORDER BY lower(name), created_at, id) a
     WHERE a.key = lower(s.account_name) AND s.account_id IS NULL`;
}

/** Each staged row whose account name the user mapped to an account (import_account_mappings) to that account, if it is still there. */
export async function stageMappedAccounts(tx: FinanceTx, stage: AccountStage, familyId: string, importId: string): Promise<void> {
  await tx.$executeRaw`
    UPDATE ${Prisma.raw(stage)} s SET account_id = a.id
      FROM import_account_mappings m JOIN accounts a ON a.id = m.account_id AND a.family_id = ${familyId}::uuid AND a.status <> 'pending_deletion'
     WHERE m.import_id = ${importId}::uuid AND m.name = COALESCE(s.account_name, '')`;
}

/**
 * The accounts the user asked to make for names of the file (Sure's "Add as new account": its
 * create_or_find_by! by name, so an account of exactly that name is taken instead): a
 * depository in the currency of the name's first row, opening at 0 the day of its first row,
 * with the import's id (its revert removes them). Stages the rows to them.
 */
export async function createMappedAccounts(tx: FinanceTx, stage: AccountStage, familyId: string, importId: string): Promise<void> {
  // A trade's account is an investment one: a new depository is no place for it (its names map to accounts only).
  if (stage !== "import_stage") return;
  const ids = risingIds();
  const created = await tx.$queryRaw<{ id: string; name: string }[]>`
    WITH wanted AS (
      SELECT m.name, row_number() OVER (ORDER BY m.name) AS ordinal,
             (SELECT s.file_currency FROM ${Prisma.raw(stage)} s WHERE s.account_name = m.name ORDER BY s.row_number LIMIT 1) AS currency
        FROM import_account_mappings m
       WHERE m.import_id = ${importId}::uuid AND m."create" AND m.name <> ''
         AND EXISTS (SELECT 1 FROM ${Prisma.raw(stage)} s WHERE s.account_name = m.name AND s.account_id IS NULL)
         AND NOT EXISTS (SELECT 1 FROM accounts a WHERE a.family_id = ${familyId}::uuid AND a.status <> 'pending_deletion' AND a.name = m.name))
    INSERT INTO accounts (id, family_id, name, account_type, classification, currency, status, balance_cents, cash_balance_cents, import_id, created_at, updated_at)
    SELECT ${ids(Prisma.sql`w.ordinal`)}, ${familyId}::uuid, w.name, 'depository', 'asset', w.currency, 'active', 0, 0, ${importId}::uuid, now(), now()
      FROM wanted w WHERE w.currency IS NOT NULL
    RETURNING id, name`;
  if (created.length === 0) return;
  await tx.$executeRaw`
    UPDATE ${Prisma.raw(stage)} s SET account_id = c.id
      FROM unnest(${created.map((c) => c.id)}::uuid[], ${created.map((c) => c.name)}::text[]) AS c(id, name)
     WHERE s.account_name = c.name AND s.account_id IS NULL`;
  const valuationIds = risingIds();
  await tx.$executeRaw`
    INSERT INTO entries (id, family_id, account_id, kind, valuation_kind, date, name, amount_cents, currency, import_id, created_at, updated_at)
    SELECT ${valuationIds(Prisma.sql`row_number() OVER (ORDER BY o.account_id)`)}, ${familyId}::uuid, o.account_id, 'valuation', 'opening_anchor',
           o.first, 'Opening balance', 0, a.currency, ${importId}::uuid, now(), now()
      FROM (SELECT account_id, min(date) AS first FROM ${Prisma.raw(stage)} WHERE account_id = ANY(${created.map((c) => c.id)}::uuid[]) GROUP BY account_id) o
      JOIN accounts a ON a.id = o.account_id`;
}

/** Up to ten account names of staged rows left without an account (null: rows that name none), sorted. */
export async function unknownStagedAccountNames(tx: FinanceTx, stage: AccountStage): Promise<(string | null)[]> {
  const unknown = await tx.$queryRaw<
    { name: string | null }[]
  >`SELECT DISTINCT account_name AS name FROM ${Prisma.raw(stage)} WHERE account_id IS NULL ORDER BY 1 LIMIT 10`;
  return unknown.map((row) => row.name);
}
