import { z } from "zod";
import { type RouteDef, defineRoute } from "./route";
import { PageQuerySchema, UuidSchema } from "./primitives";
import { CreateTagBodySchema, TagSchema, UpdateTagBodySchema } from "./resources/tags";
import { CreateMerchantBodySchema, MerchantSchema } from "./resources/merchants";
import { ChatCollectionSchema, ChatDetailSchema, CreateChatBodySchema } from "./resources/chats";
import { PushSubscriptionSchema, RegisterPushSubscriptionBodySchema } from "./resources/push-subscriptions";
import { ApiKeyListSchema, CreateApiKeyBodySchema, CreatedApiKeySchema } from "./resources/api-keys";
import { AuthResponseSchema, LoginBodySchema, RefreshBodySchema, SignupBodySchema, TokenResponseSchema, UserEnvelopeSchema } from "./resources/auth";
import { AuditLogListSchema, AuditLogQuerySchema } from "./events/audit-events";
import type { RouteOwner } from "./route";

const IdParams = z.object({ id: UuidSchema });
const READ = { auth: "any", scope: "read" } as const;
const WRITE = { auth: "any", scope: "read_write" } as const;
const PUBLIC = { auth: "public" } as const;

/**
 * Every public route of Hearth, keyed by the procedure that serves it. Paths, parameters,
 * payloads and statuses follow Sure's OpenAPI file; the spec wins where they differ.
 */
export const routes = {
  // --- identity (served by the gateway itself) ---
  "auth.signup": defineRoute({
    method: "POST",
    path: "/api/v1/auth/signup",
    summary: "Sign up a new user and family",
    tag: "Auth",
    owner: "gateway",
    procedure: "auth.signup",
    body: SignupBodySchema,
    response: AuthResponseSchema,
    status: 201,
    access: PUBLIC,
  }),
  "auth.login": defineRoute({
    method: "POST",
    path: "/api/v1/auth/login",
    summary: "Log in with email and password",
    tag: "Auth",
    owner: "gateway",
    procedure: "auth.login",
    body: LoginBodySchema,
    response: AuthResponseSchema,
    status: 200,
    access: PUBLIC,
  }),
  "auth.refresh": defineRoute({
    method: "POST",
    path: "/api/v1/auth/refresh",
    summary: "Refresh an access token (rotates the refresh token)",
    tag: "Auth",
    owner: "gateway",
    procedure: "auth.refresh",
    body: RefreshBodySchema,
    response: TokenResponseSchema,
    status: 200,
    access: PUBLIC,
  }),
  "auth.logout": defineRoute({
    method: "POST",
    path: "/api/v1/auth/logout",
    summary: "Log out: end the session of the bearer token (its refresh and access tokens stop working)",
    tag: "Auth",
    owner: "gateway",
    procedure: "auth.logout",
    response: null,
    status: 204,
    // Every bearer token is read_write: the scope only keeps the rule "writes need read_write" whole.
    access: { auth: "bearer", scope: "read_write" },
  }),
  "auth.enableAi": defineRoute({
    method: "PATCH",
    path: "/api/v1/auth/enable_ai",
    summary: "Enable AI features for the authenticated user",
    tag: "Auth",
    owner: "gateway",
    procedure: "auth.enableAi",
    response: UserEnvelopeSchema,
    status: 200,
    access: WRITE,
  }),
  "users.me": defineRoute({
    method: "GET",
    path: "/api/v1/users/me",
    summary: "The authenticated user",
    tag: "Users",
    owner: "gateway",
    procedure: "users.me",
    response: UserEnvelopeSchema,
    status: 200,
    access: READ,
  }),
  "apiKeys.list": defineRoute({
    method: "GET",
    path: "/api/v1/api_keys",
    summary: "List your API keys",
    tag: "API keys",
    owner: "gateway",
    procedure: "apiKeys.list",
    response: ApiKeyListSchema,
    status: 200,
    access: { auth: "bearer" },
  }),
  "apiKeys.create": defineRoute({
    method: "POST",
    path: "/api/v1/api_keys",
    summary: "Create an API key (the plain key is shown once)",
    tag: "API keys",
    owner: "gateway",
    procedure: "apiKeys.create",
    body: CreateApiKeyBodySchema,
    response: CreatedApiKeySchema,
    status: 201,
    access: { auth: "bearer", scope: "read_write" },
  }),
  "apiKeys.revoke": defineRoute({
    method: "DELETE",
    path: "/api/v1/api_keys/:id",
    summary: "Revoke one of your API keys",
    tag: "API keys",
    owner: "gateway",
    procedure: "apiKeys.revoke",
    params: IdParams,
    response: null,
    status: 204,
    access: { auth: "bearer", scope: "read_write" },
  }),

  // --- finance ---
  "tags.list": defineRoute({
    method: "GET",
    path: "/api/v1/tags",
    summary: "List tags",
    tag: "Tags",
    owner: "finance",
    procedure: "tags.list",
    response: z.array(TagSchema),
    status: 200,
    access: READ,
  }),
  "tags.get": defineRoute({
    method: "GET",
    path: "/api/v1/tags/:id",
    summary: "Retrieve a tag",
    tag: "Tags",
    owner: "finance",
    procedure: "tags.get",
    params: IdParams,
    response: TagSchema,
    status: 200,
    access: READ,
  }),
  "tags.create": defineRoute({
    method: "POST",
    path: "/api/v1/tags",
    summary: "Create a tag (colour auto-assigned when omitted)",
    tag: "Tags",
    owner: "finance",
    procedure: "tags.create",
    body: CreateTagBodySchema,
    response: TagSchema,
    status: 201,
    access: WRITE,
  }),
  "tags.update": defineRoute({
    method: "PATCH",
    path: "/api/v1/tags/:id",
    summary: "Update a tag",
    tag: "Tags",
    owner: "finance",
    procedure: "tags.update",
    params: IdParams,
    body: UpdateTagBodySchema,
    response: TagSchema,
    status: 200,
    access: WRITE,
  }),
  "tags.delete": defineRoute({
    method: "DELETE",
    path: "/api/v1/tags/:id",
    summary: "Delete a tag",
    tag: "Tags",
    owner: "finance",
    procedure: "tags.delete",
    params: IdParams,
    response: null,
    status: 204,
    access: WRITE,
  }),
  "merchants.list": defineRoute({
    method: "GET",
    path: "/api/v1/merchants",
    summary: "List merchants (bare array)",
    tag: "Merchants",
    owner: "finance",
    procedure: "merchants.list",
    response: z.array(MerchantSchema),
    status: 200,
    access: READ,
  }),
  "merchants.get": defineRoute({
    method: "GET",
    path: "/api/v1/merchants/:id",
    summary: "Retrieve a merchant",
    tag: "Merchants",
    owner: "finance",
    procedure: "merchants.get",
    params: IdParams,
    response: MerchantSchema,
    status: 200,
    access: READ,
  }),
  "merchants.create": defineRoute({
    method: "POST",
    path: "/api/v1/merchants",
    summary: "Create a family merchant",
    tag: "Merchants",
    owner: "finance",
    procedure: "merchants.create",
    body: CreateMerchantBodySchema,
    response: MerchantSchema,
    status: 201,
    access: WRITE,
  }),

  // --- chat ---
  "chats.list": defineRoute({
    method: "GET",
    path: "/api/v1/chats",
    summary: "List chats",
    tag: "Chats",
    owner: "chat",
    procedure: "chats.list",
    query: PageQuerySchema,
    response: ChatCollectionSchema,
    status: 200,
    access: READ,
  }),
  "chats.create": defineRoute({
    method: "POST",
    path: "/api/v1/chats",
    summary: "Create a chat",
    tag: "Chats",
    owner: "chat",
    procedure: "chats.create",
    body: CreateChatBodySchema,
    response: ChatDetailSchema,
    status: 201,
    access: WRITE,
  }),

  // --- notifications ---
  "pushSubscriptions.register": defineRoute({
    method: "POST",
    path: "/api/v1/push_subscriptions",
    summary: "Register (or refresh) an iOS push token",
    tag: "Push subscriptions",
    owner: "notifications",
    procedure: "pushSubscriptions.register",
    body: RegisterPushSubscriptionBodySchema,
    response: PushSubscriptionSchema,
    status: 201,
    access: WRITE,
  }),

  // --- audit ---
  "auditLogs.list": defineRoute({
    method: "GET",
    path: "/api/v1/audit-logs",
    summary: "SSO audit log of your family (admins only, newest first)",
    tag: "Audit",
    owner: "audit",
    procedure: "auditLogs.list",
    query: AuditLogQuerySchema,
    response: AuditLogListSchema,
    status: 200,
    access: { auth: "bearer", scope: "read", role: "admin" },
  }),
} satisfies Record<string, RouteDef>;

export type Routes = typeof routes;
export type ProcedureName = keyof Routes;
export type ProceduresOf<O extends RouteOwner> = {
  [K in ProcedureName]: Routes[K]["owner"] extends O ? K : never;
}[ProcedureName];

export function routesOf(owner: RouteOwner): RouteDef[] {
  return Object.values(routes).filter((route: RouteDef) => route.owner === owner);
}
