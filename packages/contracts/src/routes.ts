import { z } from "zod";
import { type RouteDef, type RouteOwner, defineRoute } from "./route";
import { PageQuerySchema } from "./primitives";
import { CategoryCollectionSchema, CategoryListQuerySchema, CategorySchema, CreateCategoryBodySchema, UpdateCategoryBodySchema } from "./resources/categories";
import { FamilySettingsSchema, UpdateFamilySettingsBodySchema } from "./resources/family-settings";
import { CreateTagBodySchema, TagSchema, UpdateTagBodySchema } from "./resources/tags";
import { CreateMerchantBodySchema, MerchantSchema, UpdateMerchantBodySchema } from "./resources/merchants";
import { ChatCollectionSchema, ChatDetailSchema, CreateChatBodySchema } from "./resources/chats";
import { PushSubscriptionSchema, RegisterPushSubscriptionBodySchema } from "./resources/push-subscriptions";
import { AuditLogListSchema, AuditLogQuerySchema } from "./events/audit-events";
import { identityRoutes } from "./routes-identity";
import { ssoRoutes } from "./routes-sso";
import { ledgerRoutes } from "./routes-ledger";
import { IdParams, READ, WRITE } from "./route-access";

/**
 * Every public route of Hearth, keyed by the procedure that serves it. Paths, parameters,
 * payloads and statuses follow Sure's OpenAPI file; the spec wins where they differ.
 */
export const routes = {
  ...identityRoutes,
  ...ssoRoutes,
  ...ledgerRoutes,

  // --- finance ---
  "familySettings.get": defineRoute({
    method: "GET",
    path: "/api/v1/family_settings",
    summary: "Retrieve family settings",
    tag: "Family Settings",
    owner: "finance",
    procedure: "familySettings.get",
    response: FamilySettingsSchema,
    status: 200,
    access: READ,
  }),
  "familySettings.update": defineRoute({
    method: "PATCH",
    path: "/api/v1/family_settings",
    summary: "Change family settings (admins only)",
    tag: "Family Settings",
    owner: "finance",
    procedure: "familySettings.update",
    body: UpdateFamilySettingsBodySchema,
    response: FamilySettingsSchema,
    status: 200,
    access: { auth: "any", scope: "read_write", role: "admin" },
  }),
  "categories.list": defineRoute({
    method: "GET",
    path: "/api/v1/categories",
    summary: "List categories (a new family starts with a default set)",
    tag: "Categories",
    owner: "finance",
    procedure: "categories.list",
    query: CategoryListQuerySchema,
    response: CategoryCollectionSchema,
    status: 200,
    access: READ,
  }),
  "categories.get": defineRoute({
    method: "GET",
    path: "/api/v1/categories/:id",
    summary: "Retrieve a category",
    tag: "Categories",
    owner: "finance",
    procedure: "categories.get",
    params: IdParams,
    response: CategorySchema,
    status: 200,
    access: READ,
  }),
  "categories.create": defineRoute({
    method: "POST",
    path: "/api/v1/categories",
    summary: "Create a category or, with parent_id, a subcategory (two levels at most)",
    tag: "Categories",
    owner: "finance",
    procedure: "categories.create",
    body: CreateCategoryBodySchema,
    response: CategorySchema,
    status: 201,
    access: WRITE,
  }),
  "categories.update": defineRoute({
    method: "PATCH",
    path: "/api/v1/categories/:id",
    summary: "Update a category",
    tag: "Categories",
    owner: "finance",
    procedure: "categories.update",
    params: IdParams,
    body: UpdateCategoryBodySchema,
    response: CategorySchema,
    status: 200,
    access: WRITE,
  }),
  "categories.delete": defineRoute({
    method: "DELETE",
    path: "/api/v1/categories/:id",
    summary: "Delete a category (its subcategories become top-level)",
    tag: "Categories",
    owner: "finance",
    procedure: "categories.delete",
    params: IdParams,
    response: null,
    status: 204,
    access: WRITE,
  }),
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
  "merchants.update": defineRoute({
    method: "PATCH",
    path: "/api/v1/merchants/:id",
    summary: "Rename or recolour a family merchant (provider merchants are read-only)",
    tag: "Merchants",
    owner: "finance",
    procedure: "merchants.update",
    params: IdParams,
    body: UpdateMerchantBodySchema,
    response: MerchantSchema,
    status: 200,
    access: WRITE,
  }),
  "merchants.delete": defineRoute({
    method: "DELETE",
    path: "/api/v1/merchants/:id",
    summary: "Delete a family merchant",
    tag: "Merchants",
    owner: "finance",
    procedure: "merchants.delete",
    params: IdParams,
    response: null,
    status: 204,
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
