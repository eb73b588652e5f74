import { defineResourceRoutes } from "../define-resource-routes";
import { IdParams } from "../../route-access";
import {
  FamilyExportCollectionSchema,
  FamilyExportCreateParamsSchema,
  FamilyExportListQuerySchema,
  FamilyExportResponseSchema,
} from "../../resources/family-exports";

/** Sure's family exports: a family admin's, read scope to read, write scope to create. */
const ADMIN_READ_ANY = { auth: "any", scope: "read", role: "admin" } as const;
const ADMIN_WRITE_ANY = { auth: "any", scope: "read_write", role: "admin" } as const;

export const familyExportsRoutes = defineResourceRoutes("finance", "familyExports", {
  list: {
    method: "GET",
    path: "/api/v1/family_exports",
    summary: "List the family's exports, newest first",
    tag: "Family Exports",
    query: FamilyExportListQuerySchema,
    response: FamilyExportCollectionSchema,
    status: 200,
    access: ADMIN_READ_ANY,
  },
  get: {
    method: "GET",
    path: "/api/v1/family_exports/:id",
    summary: "Show a family export",
    tag: "Family Exports",
    params: IdParams,
    response: FamilyExportResponseSchema,
    status: 200,
    access: ADMIN_READ_ANY,
  },
  create: {
    method: "POST",
    path: "/api/v1/family_exports",
    summary: "Queue an export of all the family's data (Sure's export version 2 ZIP); takes no parameters",
    tag: "Family Exports",
    query: FamilyExportCreateParamsSchema,
    body: FamilyExportCreateParamsSchema,
    response: FamilyExportResponseSchema,
    status: 202,
    access: ADMIN_WRITE_ANY,
    sureErrors: { invalid: "invalid_params" },
  },
  delete: {
    method: "DELETE",
    path: "/api/v1/family_exports/:id",
    summary: "Delete a completed or failed export and its archive (Hearth's; Sure's web app deletes them); 409 while it is being built",
    tag: "Family Exports",
    params: IdParams,
    response: null,
    status: 204,
    access: ADMIN_WRITE_ANY,
  },
});
