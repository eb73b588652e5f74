import { defineResourceRoutes } from "../define-resource-routes";
import { MemberEnvelopeSchema, MemberListSchema, UpdateRoleBodySchema } from "../../resources/members";
import { ADMIN_WRITE, IdParams, READ } from "../../route-access";

export const membersRoutes = defineResourceRoutes("gateway", "members", {
  list: {
    method: "GET",
    path: "/api/v1/users",
    summary: "The members of your family",
    tag: "Users",
    response: MemberListSchema,
    status: 200,
    access: READ,
  },
  updateRole: {
    method: "PATCH",
    path: "/api/v1/users/:id/role",
    summary: "Change a member's role (admins only; a family keeps at least one active admin)",
    tag: "Users",
    params: IdParams,
    body: UpdateRoleBodySchema,
    response: MemberEnvelopeSchema,
    status: 200,
    access: ADMIN_WRITE,
  },
  suspend: {
    method: "POST",
    path: "/api/v1/users/:id/suspend",
    summary: "Suspend a member: their sessions end and their API keys stop working until reactivated",
    tag: "Users",
    params: IdParams,
    response: MemberEnvelopeSchema,
    status: 200,
    access: ADMIN_WRITE,
  },
  reactivate: {
    method: "POST",
    path: "/api/v1/users/:id/reactivate",
    summary: "Reactivate a suspended member",
    tag: "Users",
    params: IdParams,
    response: MemberEnvelopeSchema,
    status: 200,
    access: ADMIN_WRITE,
  },
});
