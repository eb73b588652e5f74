import { defineResourceRoutes } from "../define-resource-routes";
import { AuthResponseSchema, LoginBodySchema, RefreshBodySchema, SignupBodySchema, TokenResponseSchema, UserEnvelopeSchema } from "../../resources/auth";
import { BEARER_WRITE, PUBLIC, WRITE } from "../../route-access";
import { SsoCreateAccountBodySchema, SsoExchangeBodySchema, SsoLinkBodySchema } from "../../resources/sso";

/** Sure's auth controller puts every refusal's sentence in `error`, validation included. */
const AUTH_REFUSALS = { validationInError: true } as const;

export const authRoutes = defineResourceRoutes("gateway", "auth", {
  signup: {
    method: "POST",
    path: "/api/v1/auth/signup",
    summary: "Sign up a new user and family",
    tag: "Auth",
    body: SignupBodySchema,
    response: AuthResponseSchema,
    status: 201,
    access: PUBLIC,
    sureErrors: AUTH_REFUSALS,
  },
  login: {
    method: "POST",
    path: "/api/v1/auth/login",
    summary: "Log in with email and password",
    tag: "Auth",
    body: LoginBodySchema,
    response: AuthResponseSchema,
    status: 200,
    access: PUBLIC,
    sureErrors: AUTH_REFUSALS,
  },
  refresh: {
    method: "POST",
    path: "/api/v1/auth/refresh",
    summary: "Refresh an access token (rotates the refresh token)",
    tag: "Auth",
    body: RefreshBodySchema,
    response: TokenResponseSchema,
    status: 200,
    access: PUBLIC,
    sureErrors: AUTH_REFUSALS,
  },
  logout: {
    method: "POST",
    path: "/api/v1/auth/logout",
    summary: "Log out: end the session of the bearer token (its refresh and access tokens stop working)",
    tag: "Auth",
    response: null,
    status: 204,
    // Every bearer token is read_write: the scope only keeps the rule "writes need read_write" whole.
    access: BEARER_WRITE,
  },
  enableAi: {
    method: "PATCH",
    path: "/api/v1/auth/enable_ai",
    summary: "Enable AI features for the authenticated user",
    tag: "Auth",
    response: UserEnvelopeSchema,
    status: 200,
    access: WRITE,
  },
  ssoExchange: {
    method: "POST",
    path: "/api/v1/auth/sso_exchange",
    summary: "Exchange mobile SSO authorization code for tokens (single use, 5 minutes)",
    tag: "SSO",
    body: SsoExchangeBodySchema,
    response: AuthResponseSchema,
    status: 200,
    access: PUBLIC,
    sureErrors: AUTH_REFUSALS,
  },
  ssoLink: {
    method: "POST",
    path: "/api/v1/auth/sso_link",
    summary: "Link an existing account via SSO (email and password of the account, and the linking code)",
    tag: "SSO",
    body: SsoLinkBodySchema,
    response: AuthResponseSchema,
    status: 200,
    access: PUBLIC,
    sureErrors: AUTH_REFUSALS,
  },
  ssoCreateAccount: {
    method: "POST",
    path: "/api/v1/auth/sso_create_account",
    summary: "Create a new account via SSO (the provider must allow account creation)",
    tag: "SSO",
    body: SsoCreateAccountBodySchema,
    response: AuthResponseSchema,
    status: 200,
    access: PUBLIC,
    sureErrors: AUTH_REFUSALS,
  },
});
