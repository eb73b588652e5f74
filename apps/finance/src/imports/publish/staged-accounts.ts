import type { FinanceTx } from "../../db";
import { Prisma } from "../../generated/prisma/client";
import { PublishError } from "./publish-error";
import type { PublishTarget } from "./transaction-import-publisher";

/**
 * Fills `account_id` of a publisher's staging table (a temp table with `account_name`): the
 * import's account, checked again (it may have been deleted since the upload), else each row's
 * account by name (the oldest of a name, as the list shows it first). Throws PublishError naming
 * up to ten names no account of the family has.
 */
export async function resolveStagedAccounts(tx: FinanceTx, stage: "import_stage" | "trade_import_stage", target: PublishTarget): Promise<void> {
  const { familyId } = target;
  const table = Prisma.raw(stage);
  if (target.accountId) {
    const [live] = await tx.$queryRaw<{ id: string }[]>`
      SELECT id FROM accounts WHERE id = ${target.accountId}::uuid AND family_id = ${familyId}::uuid AND status <> 'pending_deletion' FOR SHARE`;
    if (!live) throw new PublishError("The import's account no longer exists");
    await tx.$executeRaw`UPDATE ${table} SET account_id = ${target.accountId}::uuid`;
    return;
  }
  await tx.$executeRaw`
    UPDATE ${table} s SET account_id = a.id
      FROM (SELECT DISTINCT ON (lower(name)) id, lower(name) AS key FROM accounts
             WHERE family_id = ${familyId}::uuid AND status <> 'pending_deletion' ORDER BY lower(name), created_at, id) a
     WHERE a.key = lower(s.account_name)`;
  const unknown = await tx.$queryRaw<
    { name: string | null }[]
  >`SELECT DISTINCT account_name AS name FROM ${table} WHERE account_id IS NULL ORDER BY 1 LIMIT 10`;
  if (unknown.length === 0) return;
  const named = unknown.flatMap((row) => (row.name === null ? [] : [`"${row.name}"`]));
  throw new PublishError(
    named.length > 0 ? `No account of the family is named ${named.join(", ")}` : "Rows without an account: give the import an account_id or an account column",
  );
}
