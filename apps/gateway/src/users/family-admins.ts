import { AppError } from "@hearth/contracts";
import type { IdentityTx } from "../db";

/**
 * Locks the family's memberships for the rest of the transaction, so two admins demoting,
 * suspending or deleting each other at once cannot leave the family without one.
 */
export async function lockFamily(tx: IdentityTx, familyId: string): Promise<void> {
  await tx.$queryRaw`SELECT id FROM memberships WHERE family_id = ${familyId}::uuid FOR UPDATE`;
}

/** Active (not suspended) admins of the family other than `exceptUserId`. */
export function otherActiveAdmins(tx: IdentityTx, familyId: string, exceptUserId: string): Promise<number> {
  return tx.membership.count({ where: { familyId, role: "admin", userId: { not: exceptUserId }, user: { suspendedAt: null } } });
}

export async function assertAnotherActiveAdmin(tx: IdentityTx, familyId: string, userId: string, message: string): Promise<void> {
  if ((await otherActiveAdmins(tx, familyId, userId)) === 0) throw AppError.validation([message]);
}
