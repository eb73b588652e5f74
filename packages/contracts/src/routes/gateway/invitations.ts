import { defineResourceRoutes } from "../define-resource-routes";
import { CreateInvitationBodySchema, CreatedInvitationSchema, InvitationListSchema } from "../../resources/members";
import { ADMIN_READ, ADMIN_WRITE, IdParams } from "../../route-access";

export const invitationsRoutes = defineResourceRoutes("gateway", "invitations", {
  list: {
    method: "GET",
    path: "/api/v1/invitations",
    summary: "Invitations to join your family",
    tag: "Users",
    response: InvitationListSchema,
    status: 200,
    access: ADMIN_READ,
  },
  create: {
    method: "POST",
    path: "/api/v1/invitations",
    summary: "Invite someone to your family: they sign up with the invite_code (shown once) and this email",
    tag: "Users",
    body: CreateInvitationBodySchema,
    response: CreatedInvitationSchema,
    status: 201,
    access: ADMIN_WRITE,
  },
  revoke: {
    method: "DELETE",
    path: "/api/v1/invitations/:id",
    summary: "Withdraw an invitation that has not been accepted",
    tag: "Users",
    params: IdParams,
    response: null,
    status: 204,
    access: ADMIN_WRITE,
  },
});
