import { defineResourceRoutes } from "../define-resource-routes";
import { UserEnvelopeSchema } from "../../resources/auth";
import { BEARER_WRITE, READ, WRITE } from "../../route-access";
import { ResetInitiatedSchema, ResetStatusSchema } from "../../resources/family-reset";
import { DeleteResponseSchema } from "../../resources/common";
import { UpdateProfileBodySchema } from "../../resources/members";

export const usersRoutes = defineResourceRoutes("gateway", "users", {
  me: {
    method: "GET",
    path: "/api/v1/users/me",
    summary: "The authenticated user",
    tag: "Users",
    response: UserEnvelopeSchema,
    status: 200,
    access: READ,
  },
  updateMe: {
    method: "PATCH",
    path: "/api/v1/users/me",
    summary: "Update your profile (a new email or password needs current_password; other sessions end on a password change)",
    tag: "Users",
    body: UpdateProfileBodySchema,
    response: UserEnvelopeSchema,
    status: 200,
    access: BEARER_WRITE,
  },
  deleteMe: {
    method: "DELETE",
    path: "/api/v1/users/me",
    summary: "Delete your account (the last admin of a family with other members must promote one first); an API key may too, as in Sure",
    tag: "Users",
    // Sure's users#destroy: 200 {"message": "Account has been deleted"}, with write scope by either credential.
    response: DeleteResponseSchema,
    status: 200,
    access: WRITE,
  },
  reset: {
    method: "DELETE",
    path: "/api/v1/users/reset",
    summary:
      "Reset the family's financial data (accounts, entries, categories, merchants, tags, rules, budgets, chats...) in the background; the family, its members and settings stay. Asked again while one runs, answers that one",
    tag: "Users",
    // Sure's users#reset: write scope by either credential, and the admin role.
    response: ResetInitiatedSchema,
    status: 200,
    access: { auth: "any", scope: "read_write", role: "admin" },
  },
  resetStatus: {
    method: "GET",
    path: "/api/v1/users/reset/status",
    summary: "What the family still holds of the data a reset removes (complete when every count is zero)",
    tag: "Users",
    response: ResetStatusSchema,
    status: 200,
    access: { auth: "any", scope: "read", role: "admin" },
  },
});
