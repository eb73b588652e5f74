import type { OutputOf, Role } from "@hearth/contracts";
import type { User } from "../../generated/prisma/client";

export type MemberResourceRow = Pick<User, "id" | "email" | "firstName" | "lastName" | "otpEnabledAt" | "suspendedAt" | "createdAt"> & {
  membership: { role: Role } | null;
};

export function toMemberResource(user: MemberResourceRow): OutputOf<"members.list">["users"][number] {
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
