import { AppError, type Role } from "@hearth/contracts";
import type { WithIdentityEvents } from "../audit/identity-events";
import { requireActor, type LocalHandler } from "../local-handlers";
import type { SessionRepository } from "../sessions/session-repository";
import { requireAnotherActiveAdmin } from "./family-admins";
import type { MemberRepository } from "./member-repository";
import { toMemberResource } from "./member-resource";

export interface MemberHandlerDeps {
  members: MemberRepository;
  sessions: SessionRepository;
  withIdentityEvents: WithIdentityEvents;
}

/** The family's members, and what admins do to them: change roles, suspend, reactivate. */
export function createMemberHandlers({ members, sessions, withIdentityEvents }: MemberHandlerDeps) {
  const list: LocalHandler<"members.list"> = async ({ actor }) => ({ users: (await members.list(requireActor(actor).familyId)).map(toMemberResource) });

  const updateRole: LocalHandler<"members.updateRole"> = async ({ actor, input, request }) => {
    const { familyId, sessionId } = requireActor(actor);
    const user = await withIdentityEvents(request, async (tx, record) => {
      await members.lockFamily(tx, familyId);
      const member = await members.find(tx, familyId, input.id);
      const old: Role = member.membership.role;
      if (old === input.role) return toMemberResource(member);
      if (old === "admin") {
        requireAnotherActiveAdmin(
          await members.otherActiveAdmins(tx, familyId, member.id),
          "A family needs at least one active admin: promote another member first",
        );
      }
      await members.setRole(tx, member.id, input.role);
      record("user.roles.updated", { familyId, user: member, sessionId, changes: { role: { old, new: input.role } } });
      return toMemberResource({ ...member, membership: { role: input.role } });
    });
    return { user };
  };

  const setSuspended =
    (suspend: boolean): LocalHandler<"members.suspend" | "members.reactivate"> =>
    async ({ actor, input, request }) => {
      const { familyId, userId, sessionId } = requireActor(actor);
      if (suspend && input.id === userId) throw AppError.validation(["You cannot suspend yourself"]);
      const user = await withIdentityEvents(request, async (tx, record) => {
        await members.lockFamily(tx, familyId);
        const member = await members.find(tx, familyId, input.id);
        if ((member.suspendedAt !== null) === suspend) return toMemberResource(member);
        const now = new Date();
        const updated = await members.setSuspended(tx, member.id, suspend ? now : null);
        // Tokens end for good; API keys are refused while suspended and work again after.
        if (suspend) await sessions.revokeAllOfUser(tx, member.id, "user_suspended", now);
        const status = { old: suspend ? "active" : "suspended", new: suspend ? "suspended" : "active" };
        record(suspend ? "user.suspended" : "user.reactivated", { familyId, user: member, sessionId, changes: { status } });
        return toMemberResource(updated);
      });
      return { user };
    };

  return {
    "members.list": list,
    "members.updateRole": updateRole,
    "members.suspend": setSuspended(true),
    "members.reactivate": setSuspended(false),
  };
}
