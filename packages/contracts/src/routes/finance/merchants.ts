import { z } from "zod";
import { defineResourceRoutes } from "../define-resource-routes";
import { CreateMerchantBodySchema, MerchantSchema, UpdateMerchantBodySchema } from "../../resources/merchants";
import { IdParams, READ, WRITE } from "../../route-access";

export const merchantsRoutes = defineResourceRoutes("finance", "merchants", {
  list: {
    method: "GET",
    path: "/api/v1/merchants",
    summary: "List merchants (bare array)",
    tag: "Merchants",
    response: z.array(MerchantSchema),
    status: 200,
    access: READ,
  },
  get: {
    method: "GET",
    path: "/api/v1/merchants/:id",
    summary: "Retrieve a merchant",
    tag: "Merchants",
    params: IdParams,
    response: MerchantSchema,
    status: 200,
    access: READ,
  },
  create: {
    method: "POST",
    path: "/api/v1/merchants",
    summary: "Create a family merchant",
    tag: "Merchants",
    body: CreateMerchantBodySchema,
    response: MerchantSchema,
    status: 201,
    access: WRITE,
  },
  update: {
    method: "PATCH",
    path: "/api/v1/merchants/:id",
    summary: "Rename or recolour a family merchant (provider merchants are read-only)",
    tag: "Merchants",
    params: IdParams,
    body: UpdateMerchantBodySchema,
    response: MerchantSchema,
    status: 200,
    access: WRITE,
  },
  delete: {
    method: "DELETE",
    path: "/api/v1/merchants/:id",
    summary: "Delete a family merchant",
    tag: "Merchants",
    params: IdParams,
    response: null,
    status: 204,
    access: WRITE,
  },
});
