import type { Role } from "@hearth/contracts";
import { sha256 } from "../../crypto/secrets";
import type { Transaction } from "../audit/identity-events";
import { AuthRefusal } from "../auth/auth-errors";
import type { InvitationRepository } from "./invitation-repository";

// Sure's answer to any bad code, whatever is wrong with it.
const INVALID_INVITE_CODE = () => new AuthRefusal("forbidden", "Invalid invite code");

/**
 * Spends an invite code at sign-up, inside its transaction: the code must be live and issued
 * for this email. Answers the family and role to join.
 */
export async function claimInvitation(
  invitations: InvitationRepository,
  tx: Transaction,
  code: string,
  email: string,
  now = new Date(),
): Promise<{ familyId: string; role: Role }> {
  const invitation = await invitations.findByCode(tx, sha256(code));
  if (!invitation || invitation.acceptedAt || invitation.expiresAt <= now || invitation.email !== email) throw INVALID_INVITE_CODE();
  if (!(await invitations.accept(tx, invitation.id, now))) throw INVALID_INVITE_CODE();
  return { familyId: invitation.familyId, role: invitation.role };
}
