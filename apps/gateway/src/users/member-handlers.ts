import { AppError, type Role } from "@hearth/contracts";
import type { IdentityDb, IdentityTx } from "../db";
import { recordIdentityEvent } from "../events/identity-events";
import { requireActor, type LocalHandler } from "../local-handlers";
import { revokeUserSessions } from "../auth/sessions";
import { assertAnotherActiveAdmin, lockFamily } from "./family-admins";
import { MEMBER_INCLUDE, memberResource } from "./member-resource";

/** The family's members, and what admins do to them: change roles, suspend, reactivate. */
export function createMemberHandlers(db: IdentityDb, onEventsWritten: () => void) {
  /** The member `id` of the actor's family, or 404: another family's user does not exist here. */
  async function memberOf(tx: IdentityTx, familyId: string, id: string) {
    const user = await tx.user.findFirst({ where: { id, membership: { familyId } }, include: MEMBER_INCLUDE });
    if (!user?.membership) throw AppError.notFound("User");
    return { ...user, membership: user.membership };
  }

  const list: LocalHandler<"members.list"> = async ({ actor }) => {
    const users = await db.user.findMany({
      where: { membership: { familyId: requireActor(actor).familyId } },
      include: MEMBER_INCLUDE,
      orderBy: { createdAt: "asc" },
    });
    return { users: users.map(memberResource) };
  };

  const updateRole: LocalHandler<"members.updateRole"> = async ({ actor, input, request }) => {
    const { familyId, sessionId } = requireActor(actor);
    const result = await db.$transaction(async (tx) => {
      await lockFamily(tx, familyId);
      const member = await memberOf(tx, familyId, input.id);
      const old: Role = member.membership.role;
      if (old === input.role) return memberResource(member);
      if (old === "admin") await assertAnotherActiveAdmin(tx, familyId, member.id, "A family needs at least one active admin: promote another member first");
      await tx.membership.update({ where: { userId: member.id }, data: { role: input.role } });
      await recordIdentityEvent(tx, "user.roles.updated", { familyId, user: member, request, sessionId, changes: { role: { old, new: input.role } } });
      return memberResource({ ...member, membership: { role: input.role } });
    });
    onEventsWritten();
    return { user: result };
  };

  const setSuspended =
    (suspend: boolean): LocalHandler<"members.suspend" | "members.reactivate"> =>
    async ({ actor, input, request }) => {
      const { familyId, userId, sessionId } = requireActor(actor);
      if (suspend && input.id === userId) throw AppError.validation(["You cannot suspend yourself"]);
      const result = await db.$transaction(async (tx) => {
        await lockFamily(tx, familyId);
        const member = await memberOf(tx, familyId, input.id);
        if ((member.suspendedAt !== null) === suspend) return memberResource(member);
        const now = new Date();
        const updated = await tx.user.update({ where: { id: member.id }, data: { suspendedAt: suspend ? now : null }, include: MEMBER_INCLUDE });
        // Tokens end for good; API keys are refused while suspended and work again after.
        if (suspend) await revokeUserSessions(tx, member.id, "user_suspended", now);
        const status = { old: suspend ? "active" : "suspended", new: suspend ? "suspended" : "active" };
        await recordIdentityEvent(tx, suspend ? "user.suspended" : "user.reactivated", { familyId, user: member, request, sessionId, changes: { status } });
        return memberResource(updated);
      });
      onEventsWritten();
      return { user: result };
    };

  return {
    "members.list": list,
    "members.updateRole": updateRole,
    "members.suspend": setSuspended(true),
    "members.reactivate": setSuspended(false),
  };
}
