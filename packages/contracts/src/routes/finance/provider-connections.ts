import { defineResourceRoutes } from "../define-resource-routes";
import { IdParams, READ, WRITE } from "../../route-access";
import { ProviderConnectionCollectionSchema, ProviderConnectionCreateBodySchema, ProviderConnectionResponseSchema } from "../../resources/provider-connections";

/** Connecting and removing a bank bridge is a family admin's (API key or bearer token). */
const ADMIN_WRITE_ANY = { auth: "any", scope: "read_write", role: "admin" } as const;

export const providerConnectionsRoutes = defineResourceRoutes("finance", "providerConnections", {
  list: {
    method: "GET",
    path: "/api/v1/provider_connections",
    summary: "List the status summaries of the family's provider connections, without credentials, raw payloads or raw sync errors",
    tag: "Provider Connections",
    response: ProviderConnectionCollectionSchema,
    status: 200,
    access: READ,
  },
  create: {
    method: "POST",
    path: "/api/v1/provider_connections",
    summary: "Register a SimpleFIN Bridge connection by setup token or access URL (ours); its first sync starts in the background",
    tag: "Provider Connections",
    body: ProviderConnectionCreateBodySchema,
    response: ProviderConnectionResponseSchema,
    status: 201,
    access: ADMIN_WRITE_ANY,
  },
  sync: {
    method: "POST",
    path: "/api/v1/provider_connections/:id/sync",
    summary: "Queue a sync of a provider connection (ours); a sync already queued or running is the one answered",
    tag: "Provider Connections",
    params: IdParams,
    response: ProviderConnectionResponseSchema,
    status: 202,
    access: WRITE,
  },
  delete: {
    method: "DELETE",
    path: "/api/v1/provider_connections/:id",
    summary: "Remove a provider connection and its credentials (ours); the accounts it made and their transactions stay",
    tag: "Provider Connections",
    params: IdParams,
    response: null,
    status: 204,
    access: ADMIN_WRITE_ANY,
  },
});
