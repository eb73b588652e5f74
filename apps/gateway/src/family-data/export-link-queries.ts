import type { IdentityDb } from "../db";

/**
 * Whether the credential that asked for a download link still grants it now: the API key live,
 * or the user signed in somewhere (a live session), the user not suspended and still an admin of
 * the family (exports are an admin's). A link outlives neither a revoked key, a logout, a
 * suspension nor a demotion: it is read at each download, not only when the link was made.
 */
export function createExportLinkQueries(db: IdentityDb) {
  return {
    async grantorStillAdmits(bucket: string, familyId: string): Promise<boolean> {
      const [kind, id] = bucket.split(":") as [string, string];
      const rows =
        kind === "api_key"
          ? await db.$queryRaw<unknown[]>`
              SELECT 1 FROM api_keys k JOIN users u ON u.id = k.user_id JOIN memberships m ON m.user_id = k.user_id
               WHERE k.id = ${id}::uuid AND k.revoked_at IS NULL AND u.suspended_at IS NULL
                 AND m.family_id = ${familyId}::uuid AND m.role = 'admin'`
          : await db.$queryRaw<unknown[]>`
              SELECT 1 FROM users u JOIN memberships m ON m.user_id = u.id
               WHERE u.id = ${id}::uuid AND u.suspended_at IS NULL AND m.family_id = ${familyId}::uuid AND m.role = 'admin'
                 AND EXISTS (SELECT 1 FROM sessions s WHERE s.user_id = u.id AND s.revoked_at IS NULL)`;
      return rows.length > 0;
    },
  };
}
export type ExportLinkQueries = ReturnType<typeof createExportLinkQueries>;
