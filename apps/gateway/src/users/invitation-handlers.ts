import { AppError, type Role } from "@hearth/contracts";
import type { IdentityDb, IdentityTx } from "../db";
import { requireActor, type LocalHandler } from "../local-handlers";
import { randomSecret, sha256 } from "../auth/secrets";

const INVITATION_TTL_MS = 7 * 86_400_000;

interface InvitationRow {
  id: string;
  email: string;
  role: Role;
  expiresAt: Date;
  acceptedAt: Date | null;
  createdAt: Date;
}

function invitationResource(row: InvitationRow) {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    expires_at: row.expiresAt.toISOString(),
    accepted_at: row.acceptedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}

/**
 * Spends an invite code at sign-up: the code must be live and issued for this email. Answers
 * the family and role to join; Sure's answer to a bad code is 403 "Invalid invite code".
 */
export async function claimInvitation(tx: IdentityTx, code: string, email: string, now = new Date()): Promise<{ familyId: string; role: Role }> {
  const invitation = await tx.invitation.findUnique({ where: { codeHash: sha256(code) } });
  if (!invitation || invitation.acceptedAt || invitation.expiresAt <= now || invitation.email !== email) {
    throw new AppError("forbidden", { message: "Invalid invite code" });
  }
  const claimed = await tx.invitation.updateMany({ where: { id: invitation.id, acceptedAt: null }, data: { acceptedAt: now } });
  if (claimed.count !== 1) throw new AppError("forbidden", { message: "Invalid invite code" });
  return { familyId: invitation.familyId, role: invitation.role };
}

/** Admins invite people into their family; the invitee signs up with the code. */
export function createInvitationHandlers(db: IdentityDb) {
  const list: LocalHandler<"invitations.list"> = async ({ actor }) => {
    const rows = await db.invitation.findMany({ where: { familyId: requireActor(actor).familyId }, orderBy: { createdAt: "desc" } });
    return { invitations: rows.map(invitationResource) };
  };

  /** A new invitation replaces a pending one for the same email. */
  const create: LocalHandler<"invitations.create"> = async ({ actor, input }) => {
    const { familyId, userId } = requireActor(actor);
    const { email, role } = input.invitation;
    if (await db.user.findUnique({ where: { email }, select: { id: true } })) throw AppError.validation(["Email has already been taken"]);
    const code = randomSecret("hinv_", 24);
    const row = await db.$transaction(async (tx) => {
      await tx.invitation.deleteMany({ where: { familyId, email, acceptedAt: null } });
      return tx.invitation.create({
        data: { familyId, email, role, codeHash: sha256(code), invitedById: userId, expiresAt: new Date(Date.now() + INVITATION_TTL_MS) },
      });
    });
    return { ...invitationResource(row), invite_code: code };
  };

  const revoke: LocalHandler<"invitations.revoke"> = async ({ actor, input }) => {
    const { count } = await db.invitation.deleteMany({ where: { id: input.id, familyId: requireActor(actor).familyId, acceptedAt: null } });
    if (count === 0) throw AppError.notFound("Invitation");
  };

  return { "invitations.list": list, "invitations.create": create, "invitations.revoke": revoke };
}
