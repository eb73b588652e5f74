import { z } from "zod";
import { defineResourceRoutes } from "../define-resource-routes";
import {
  CreateMerchantBodySchema,
  ImportMerchantsBodySchema,
  MERCHANT_IMPORT_LIMITS,
  MerchantImportSchema,
  MerchantSchema,
  UpdateMerchantBodySchema,
} from "../../resources/merchants";
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
  /** Sure's merchants#create: the same method and path, a multipart CSV upload (or no body: `missing_file`). */
  import: {
    method: "POST",
    path: "/api/v1/merchants",
    summary: "Import family merchants from a CSV file (a `name` column; names already there are skipped)",
    tag: "Merchants",
    body: ImportMerchantsBodySchema,
    // Sure's merchants controller reads the website under any of these headers.
    upload: {
      field: "file",
      columns: { name: ["name"], color: ["color"], website_url: ["website_url", "website url", "website"] },
      required: ["name"],
      ...MERCHANT_IMPORT_LIMITS,
    },
    response: MerchantImportSchema,
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
