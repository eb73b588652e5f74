import type { OutputOf } from "@hearth/contracts";
import type { Invitation } from "../../generated/prisma/client";

export function toInvitationResource(
  row: Pick<Invitation, "id" | "email" | "role" | "expiresAt" | "acceptedAt" | "createdAt">,
): OutputOf<"invitations.list">["invitations"][number] {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    expires_at: row.expiresAt.toISOString(),
    accepted_at: row.acceptedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}
