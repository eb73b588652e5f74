import type { FinanceTx } from "../../db";
import { Prisma } from "../../generated/prisma/client";

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

/** Each staged row to the family's account of its name, any case: the oldest of a name, as the list shows it first. */
export async function stageAccountsByName(tx: FinanceTx, stage: AccountStage, familyId: string): Promise<void> {
  await tx.$executeRaw`
    UPDATE ${Prisma.raw(stage)} s SET account_id = a.id
      FROM (SELECT DISTINCT ON (lower(name)) id, lower(name) AS key FROM accounts
             WHERE family_id = ${familyId}::uuid AND status <> 'pending_deletion' ORDER BY lower(name), created_at, id) a
     WHERE a.key = lower(s.account_name)`;
}

/** Up to ten account names of staged rows left without an account (null: rows that name none), sorted. */
export async function unknownStagedAccountNames(tx: FinanceTx, stage: AccountStage): Promise<(string | null)[]> {
  const unknown = await tx.$queryRaw<
    { name: string | null }[]
  >`SELECT DISTINCT account_name AS name FROM ${Prisma.raw(stage)} WHERE account_id IS NULL ORDER BY 1 LIMIT 10`;
  return unknown.map((row) => row.name);
}
