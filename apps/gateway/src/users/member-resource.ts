import type { Member, Role } from "@hearth/contracts";

interface MemberRow {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  otpEnabledAt: Date | null;
  suspendedAt: Date | null;
  createdAt: Date;
  membership: { role: Role } | null;
}

export const MEMBER_INCLUDE = { membership: { select: { role: true } } } as const;

export function memberResource(user: MemberRow): Member {
  return {
    id: user.id,
    email: user.email,
    first_name: user.firstName,
    last_name: user.lastName,
    role: user.membership?.role ?? "member",
    status: user.suspendedAt ? "suspended" : "active",
    mfa_enabled: user.otpEnabledAt !== null,
    created_at: user.createdAt.toISOString(),
  };
}
