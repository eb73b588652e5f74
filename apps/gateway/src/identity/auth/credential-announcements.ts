import type { IdentityDb, IdentityTx } from "../../db";

/** The channel on which a user's credential changes are announced to every gateway instance (credential-changes.ts listens). */
export const CREDENTIAL_CHANNEL = "hearth_credentials";

/**
 * Announces that the users' credentials changed (a key or session revoked, a suspension or
 * reinstatement, a role or family change, a deletion). Inside a transaction PostgreSQL delivers
 * it at commit, so no instance drops its memory of a change that was rolled back, nor misses one
 * that committed. Every write that can end or alter a credential calls this.
 */
export async function announceCredentialChange(db: IdentityDb | IdentityTx, userIds: readonly string[]): Promise<void> {
  if (userIds.length === 0) return;
  await db.$executeRaw`SELECT pg_notify(${CREDENTIAL_CHANNEL}, id) FROM unnest(${[...userIds]}::text[]) AS id`;
}

/** The same for every member of a family (before the family and its members are deleted). */
export async function announceFamilyCredentialChange(tx: IdentityTx, familyId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_notify(${CREDENTIAL_CHANNEL}, user_id::text) FROM memberships WHERE family_id = ${familyId}::uuid`;
}
