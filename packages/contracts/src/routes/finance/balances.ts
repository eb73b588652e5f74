import { defineResourceRoutes } from "../define-resource-routes";
import { IdParams, READ } from "../../route-access";
import { BalanceCollectionSchema, BalanceListQuerySchema, BalanceSchema } from "../../resources/balances";

export const balancesRoutes = defineResourceRoutes("finance", "balances", {
  list: {
    method: "GET",
    path: "/api/v1/balances",
    summary: "List daily balances (newest first)",
    tag: "Balances",
    query: BalanceListQuerySchema,
    response: BalanceCollectionSchema,
    status: 200,
    access: READ,
  },
  get: {
    method: "GET",
    path: "/api/v1/balances/:id",
    summary: "Retrieve a daily balance",
    tag: "Balances",
    params: IdParams,
    response: BalanceSchema,
    status: 200,
    access: READ,
  },
});
