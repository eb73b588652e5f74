import type { ImportAccountName } from "@hearth/contracts";
import type { FinanceDb } from "../db";

/**
 * The names an import's valid rows give their accounts, each with where it goes: the account it
 * was mapped to (if still there), else a new one (create), else the family's oldest account of
 * that name, any case; null when none. `limit` names at most, by name.
 */
export async function importAccountNames(db: FinanceDb, familyId: string, importId: string, limit: number): Promise<ImportAccountName[]> {
  const rows = await db.$queryRaw<{ name: string; create: boolean | null; account_id: string | null; account_name: string | null }[]>`
    SELECT n.name, m.create, COALESCE(ma.id, na.id) AS account_id, COALESCE(ma.name, na.name) AS account_name
      FROM (SELECT DISTINCT COALESCE(r.values->>'account', '') AS name FROM import_rows r
             WHERE r.import_id = ${importId}::uuid AND r.values ? 'account') n
      LEFT JOIN import_account_mappings m ON m.import_id = ${importId}::uuid AND m.name = n.name
      LEFT JOIN accounts ma ON ma.id = m.account_id AND ma.family_id = ${familyId}::uuid AND ma.status <> 'pending_deletion'
      LEFT JOIN LATERAL (
        SELECT a.id, a.name FROM accounts a
         WHERE a.family_id = ${familyId}::uuid AND a.status <> 'pending_deletion' AND lower(a.name) = lower(n.name) AND n.name <> ''
           AND (m.name IS NULL OR (m.account_id IS NULL AND NOT m.create))
         ORDER BY a.created_at, a.id LIMIT 1) na ON true
     ORDER BY n.name LIMIT ${limit}`;
  return rows.map((row) => ({
    name: row.name,
    account: row.account_id && row.account_name !== null ? { id: row.account_id, name: row.account_name } : null,
    create: row.create === true && row.account_id === null,
  }));
}

/** The family's live accounts among `ids` (a mapping may only name one of them). */
export async function liveAccountIds(db: FinanceDb, familyId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.$queryRaw<{ id: string }[]>`
    SELECT id FROM accounts WHERE family_id = ${familyId}::uuid AND status <> 'pending_deletion' AND id = ANY(${ids}::uuid[])`;
  return new Set(rows.map((row) => row.id));
}

/**
 * Sets the import's mappings: one per name (given again, replaced); neither an account nor create
 * takes it back. Only while the import is pending or failed, checked under its row lock (a
 * publish takes the same lock): false when it is not, nothing written.
 */
export async function saveImportAccountMappings(
  db: FinanceDb,
  familyId: string,
  importId: string,
  mappings: { name: string; accountId: string | null; create: boolean }[],
): Promise<boolean> {
  const kept = mappings.filter((mapping) => mapping.accountId !== null || mapping.create);
  const dropped = mappings.filter((mapping) => mapping.accountId === null && !mapping.create).map((mapping) => mapping.name);
  return db.$transaction(async (tx) => {
    const [found] = await tx.$queryRaw<{ status: string }[]>`
      SELECT status::text AS status FROM imports WHERE id = ${importId}::uuid AND family_id = ${familyId}::uuid FOR UPDATE`;
    if (found?.status !== "pending" && found?.status !== "failed") return false;
    await tx.$executeRaw`DELETE FROM import_account_mappings WHERE import_id = ${importId}::uuid AND name = ANY(${dropped}::text[])`;
    await tx.$executeRaw`
      INSERT INTO import_account_mappings (import_id, family_id, name, account_id, "create")
      SELECT ${importId}::uuid, ${familyId}::uuid, m.name, m.account_id, m.create
        FROM unnest(${kept.map((m) => m.name)}::text[], ${kept.map((m) => m.accountId)}::uuid[], ${kept.map((m) => m.create)}::boolean[]) AS m(name, account_id, "create")
      ON CONFLICT (import_id, name) DO UPDATE SET account_id = EXCLUDED.account_id, "create" = EXCLUDED."create"`;
    return true;
  });
}
