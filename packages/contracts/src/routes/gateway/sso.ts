import { defineResourceRoutes } from "../define-resource-routes";
import {
  MobileSsoStartParamsSchema,
  MobileSsoStartQuerySchema,
  RedirectSchema,
  SsoAuthorizeQuerySchema,
  SsoAuthorizeResponseSchema,
  SsoCallbackQuerySchema,
} from "../../resources/sso";
import { IdParams, PUBLIC } from "../../route-access";

export const ssoRoutes = defineResourceRoutes("gateway", "sso", {
  authorize: {
    method: "GET",
    path: "/api/v1/auth/sso/:id/authorize",
    summary: "Start signing in with an SSO provider: open authorization_url in a browser",
    tag: "SSO",
    params: IdParams,
    query: SsoAuthorizeQuerySchema,
    response: SsoAuthorizeResponseSchema,
    status: 200,
    access: PUBLIC,
  },
  mobileStart: {
    method: "GET",
    path: "/auth/mobile/:provider",
    summary:
      "Sure's mobile SSO start, opened in the phone's browser: redirects to the provider named (its configured name), or back to sureapp://oauth/callback with error and message",
    tag: "SSO",
    params: MobileSsoStartParamsSchema,
    query: MobileSsoStartQuerySchema,
    response: RedirectSchema,
    status: 302,
    access: PUBLIC,
  },
  callback: {
    method: "GET",
    path: "/api/v1/auth/sso/callback",
    summary: "Where the provider sends the browser back; redirects to the app with ?code= (linked) or ?linking_code=",
    tag: "SSO",
    query: SsoCallbackQuerySchema,
    response: RedirectSchema,
    status: 302,
    access: PUBLIC,
  },
});
