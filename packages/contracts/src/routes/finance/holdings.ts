import { defineResourceRoutes } from "../define-resource-routes";
import { IdParams, READ } from "../../route-access";
import { HoldingCollectionSchema, HoldingListQuerySchema, HoldingSchema } from "../../resources/holdings";

export const holdingsRoutes = defineResourceRoutes("finance", "holdings", {
  list: {
    method: "GET",
    path: "/api/v1/holdings",
    summary: "List holdings: one row per account, security and day",
    tag: "Holdings",
    query: HoldingListQuerySchema,
    response: HoldingCollectionSchema,
    status: 200,
    access: READ,
  },
  get: {
    method: "GET",
    path: "/api/v1/holdings/:id",
    summary: "Retrieve a holding",
    tag: "Holdings",
    params: IdParams,
    response: HoldingSchema,
    status: 200,
    access: READ,
    sureErrors: { notFound: "Holding not found" },
  },
});
