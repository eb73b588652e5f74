import type { AuthUser } from "@hearth/contracts";

interface UserRow {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  uiLayout: string;
  aiEnabled: boolean;
}

/** Sure's user fields, as login, enable_ai and users/me answer them. */
export function userResource(user: UserRow): AuthUser {
  return {
    id: user.id,
    email: user.email,
    first_name: user.firstName,
    last_name: user.lastName,
    ui_layout: user.uiLayout === "intro" ? "intro" : "dashboard",
    ai_enabled: user.aiEnabled,
  };
}
