import { z } from "zod";
import { defineResourceRoutes } from "../define-resource-routes";
import { CreateTagBodySchema, TagSchema, UpdateTagBodySchema } from "../../resources/tags";
import { IdParams, READ, WRITE } from "../../route-access";

export const tagsRoutes = defineResourceRoutes("finance", "tags", {
  list: {
    method: "GET",
    path: "/api/v1/tags",
    summary: "List tags",
    tag: "Tags",
    response: z.array(TagSchema),
    status: 200,
    access: READ,
  },
  get: {
    method: "GET",
    path: "/api/v1/tags/:id",
    summary: "Retrieve a tag",
    tag: "Tags",
    params: IdParams,
    response: TagSchema,
    status: 200,
    access: READ,
  },
  create: {
    method: "POST",
    path: "/api/v1/tags",
    summary: "Create a tag (colour auto-assigned when omitted)",
    tag: "Tags",
    body: CreateTagBodySchema,
    response: TagSchema,
    status: 201,
    access: WRITE,
  },
  update: {
    method: "PATCH",
    path: "/api/v1/tags/:id",
    summary: "Update a tag",
    tag: "Tags",
    params: IdParams,
    body: UpdateTagBodySchema,
    response: TagSchema,
    status: 200,
    access: WRITE,
  },
  delete: {
    method: "DELETE",
    path: "/api/v1/tags/:id",
    summary: "Delete a tag",
    tag: "Tags",
    params: IdParams,
    response: null,
    status: 204,
    access: WRITE,
  },
});
