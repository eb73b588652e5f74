import type { IdentityDb, IdentityTx } from "../../db";

/** A notification on `channel` for each user (inside a transaction PostgreSQL delivers them at its commit). */
export async function notifyUsers(db: IdentityDb | IdentityTx, channel: string, userIds: readonly string[]): Promise<void> {
  await db.$executeRaw`SELECT pg_notify(${channel}, id) FROM unnest(${[...userIds]}::text[]) AS id`;
}

/** A notification on `channel` for each member of the family: their ids. */
export async function notifyFamilyMembers(tx: IdentityTx, channel: string, familyId: string): Promise<string[]> {
  // pg_notify answers void, which no client reads: it runs beside the ids, not among them.
  const members = await tx.$queryRaw<{ id: string }[]>`
    SELECT m.id FROM (SELECT user_id::text AS id FROM memberships WHERE family_id = ${familyId}::uuid) m
      CROSS JOIN LATERAL (SELECT pg_notify(${channel}, m.id)) sent`;
  return members.map(({ id }) => id);
}
