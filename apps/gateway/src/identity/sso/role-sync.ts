import type { Role } from "@hearth/contracts";
import type { EventRequestFacts } from "../audit/identity-event";
import type { WithIdentityEvents } from "../audit/identity-events";
import type { MemberRepository } from "../members/member-repository";

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
export function createRoleSync(members: MemberRepository, withIdentityEvents: WithIdentityEvents) {
  return async function syncRoleFromClaims(
    provider: RoleSource,
    user: { id: string; email: string },
    currentRole: Role,
    claimValue: unknown,
    request: EventRequestFacts,
  ): Promise<Role> {
    const role = roleFromClaim(provider, claimValue);
    if (!role || role === currentRole) return currentRole;
    const synced = await withIdentityEvents(request, async (tx, record) => {
      await members.lockFamily(tx, provider.familyId);
      if (currentRole === "admin" && (await members.otherActiveAdmins(tx, provider.familyId, user.id)) === 0) return false;
      await members.setRole(tx, user.id, role);
      record("user.roles.synced", {
        familyId: provider.familyId,
        user,
        provider: provider.name,
        providerId: provider.id,
        changes: { role: { old: currentRole, new: role } },
      });
      return true;
    });
    return synced ? role : currentRole;
  };
}
export type RoleSync = ReturnType<typeof createRoleSync>;
