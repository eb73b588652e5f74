import type { Role } from "@hearth/contracts";
import type { IdentityDb } from "../db";
import { recordIdentityEvent, type EventRequestFacts } from "../events/identity-events";
import { lockFamily, otherActiveAdmins } from "../users/family-admins";

interface RoleSource {
  id: string;
  name: string;
  familyId: string;
  roleClaim: string | null;
  adminClaimValues: string[];
}

/** The role a provider's claim gives (admin when any value is an admin value), or null when the provider sets none. */
export function roleFromClaim(provider: RoleSource, claimValue: unknown): Role | null {
  if (!provider.roleClaim) return null;
  const values = Array.isArray(claimValue) ? claimValue : claimValue === null || claimValue === undefined ? [] : [claimValue];
  return values.some((value) => typeof value === "string" && provider.adminClaimValues.includes(value)) ? "admin" : "member";
}

/**
 * At each SSO sign-in the provider's claim sets the member's role (`user.roles.synced`), except
 * that it never demotes the family's last active admin (the family would be left without one).
 */
export async function syncRoleFromClaims(
  db: IdentityDb,
  provider: RoleSource,
  user: { id: string; email: string },
  currentRole: Role,
  claimValue: unknown,
  request: EventRequestFacts,
  onEventsWritten: () => void,
): Promise<Role> {
  const role = roleFromClaim(provider, claimValue);
  if (!role || role === currentRole) return currentRole;
  const synced = await db.$transaction(async (tx) => {
    await lockFamily(tx, provider.familyId);
    if (currentRole === "admin" && (await otherActiveAdmins(tx, provider.familyId, user.id)) === 0) return false;
    await tx.membership.update({ where: { userId: user.id }, data: { role } });
    await recordIdentityEvent(tx, "user.roles.synced", {
      familyId: provider.familyId,
      user,
      request,
      provider: provider.name,
      providerId: provider.id,
      changes: { role: { old: currentRole, new: role } },
    });
    return true;
  });
  if (!synced) return currentRole;
  onEventsWritten();
  return role;
}
