import { defineResourceRoutes } from "../define-resource-routes";
import { IdParams, READ } from "../../route-access";
import { SecurityCollectionSchema, SecurityListQuerySchema, SecuritySchema } from "../../resources/securities";

export const securitiesRoutes = defineResourceRoutes("finance", "securities", {
  list: {
    method: "GET",
    path: "/api/v1/securities",
    summary: "List the securities the family's accounts hold or trade",
    tag: "Securities",
    query: SecurityListQuerySchema,
    response: SecurityCollectionSchema,
    status: 200,
    access: READ,
  },
  get: {
    method: "GET",
    path: "/api/v1/securities/:id",
    summary: "Retrieve a security",
    tag: "Securities",
    params: IdParams,
    response: SecuritySchema,
    status: 200,
    access: READ,
    sureErrors: { notFound: "Security not found" },
  },
});
