import { defineResourceRoutes } from "../define-resource-routes";
import { READ } from "../../route-access";
import { BalanceSheetSchema } from "../../resources/balance-sheet";

export const balanceSheetRoutes = defineResourceRoutes("finance", "balanceSheet", {
  get: {
    method: "GET",
    path: "/api/v1/balance_sheet",
    summary: "Net worth, assets and liabilities in the family currency",
    tag: "Balance Sheet",
    response: BalanceSheetSchema,
    status: 200,
    access: READ,
  },
});
