import type { OutputOf } from "@hearth/contracts";
import type { User } from "../../generated/prisma/client";

export type UserResourceRow = Pick<User, "id" | "email" | "firstName" | "lastName" | "uiLayout" | "aiEnabled">;

/** Sure's user fields, as login, enable_ai and users/me answer them. */
export function toUserResource(user: UserResourceRow): OutputOf<"users.me">["user"] {
  return {
    id: user.id,
    email: user.email,
    first_name: user.firstName,
    last_name: user.lastName,
    ui_layout: user.uiLayout === "intro" ? "intro" : "dashboard",
    ai_enabled: user.aiEnabled,
  };
}
