import { defineResourceRoutes } from "../define-resource-routes";
import { IdParams, READ, WRITE } from "../../route-access";
import { SyncCollectionSchema, SyncQueuedSchema, SyncResponseSchema } from "../../resources/syncs";
import { PageQuerySchema } from "../../primitives";

export const syncsRoutes = defineResourceRoutes("finance", "syncs", {
  create: {
    method: "POST",
    path: "/api/v1/sync",
    summary: "Queue a sync of the whole family (every account, transfer matching)",
    tag: "Syncs",
    response: SyncQueuedSchema,
    status: 202,
    access: WRITE,
  },
  list: {
    method: "GET",
    path: "/api/v1/syncs",
    summary: "List syncs, newest first",
    tag: "Syncs",
    query: PageQuerySchema,
    response: SyncCollectionSchema,
    status: 200,
    access: READ,
  },
  latest: {
    method: "GET",
    path: "/api/v1/syncs/latest",
    summary: "The latest sync, or data: null",
    tag: "Syncs",
    response: SyncResponseSchema,
    status: 200,
    access: READ,
  },
  get: {
    method: "GET",
    path: "/api/v1/syncs/:id",
    summary: "Retrieve a sync",
    tag: "Syncs",
    params: IdParams,
    response: SyncResponseSchema,
    status: 200,
    access: READ,
  },
});
