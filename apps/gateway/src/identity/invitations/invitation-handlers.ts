import { AppError } from "@hearth/contracts";
import { randomSecret, sha256 } from "../../crypto/secrets";
import { requireActor, type LocalHandler } from "../local-handlers";
import type { InvitationRepository } from "./invitation-repository";
import { toInvitationResource } from "./invitation-resource";

const INVITATION_TTL_MS = 7 * 86_400_000;

/** Admins invite people into their family; the invitee signs up with the code. */
export function createInvitationHandlers(invitations: InvitationRepository) {
  const list: LocalHandler<"invitations.list"> = async ({ actor }) => ({
    invitations: (await invitations.list(requireActor(actor).familyId)).map(toInvitationResource),
  });

  /** A new invitation replaces a pending one for the same email. */
  const create: LocalHandler<"invitations.create"> = async ({ actor, input }) => {
    const { familyId, userId } = requireActor(actor);
    const { email, role } = input.invitation;
    if (await invitations.isEmailRegistered(email)) throw AppError.taken("Email");
    const code = randomSecret("hinv_", 24);
    const row = await invitations.replacePending(familyId, {
      email,
      role,
      codeHash: sha256(code),
      invitedById: userId,
      expiresAt: new Date(Date.now() + INVITATION_TTL_MS),
    });
    return { ...toInvitationResource(row), invite_code: code };
  };

  const revoke: LocalHandler<"invitations.revoke"> = async ({ actor, input }) => {
    if (!(await invitations.revokePending(requireActor(actor).familyId, input.id))) throw AppError.notFound("Invitation");
  };

  return { "invitations.list": list, "invitations.create": create, "invitations.revoke": revoke };
}
