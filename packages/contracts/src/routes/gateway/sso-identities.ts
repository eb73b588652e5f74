import { defineResourceRoutes } from "../define-resource-routes";
import { SsoIdentityListSchema } from "../../resources/sso";
import { BEARER_READ, BEARER_WRITE, IdParams } from "../../route-access";

export const ssoIdentitiesRoutes = defineResourceRoutes("gateway", "ssoIdentities", {
  list: {
    method: "GET",
    path: "/api/v1/sso_identities",
    summary: "Your accounts at SSO providers",
    tag: "SSO",
    response: SsoIdentityListSchema,
    status: 200,
    access: BEARER_READ,
  },
  delete: {
    method: "DELETE",
    path: "/api/v1/sso_identities/:id",
    summary: "Unlink one of your SSO accounts",
    tag: "SSO",
    params: IdParams,
    response: null,
    status: 204,
    access: BEARER_WRITE,
  },
});
