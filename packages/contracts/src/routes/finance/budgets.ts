import { answerWith } from "../../route";
import { BudgetCollectionSchema, BudgetListQuerySchema, BudgetSchema, CreateBudgetBodySchema, UpdateBudgetBodySchema } from "../../resources/budgets";
import { IdParams, READ, WRITE } from "../../route-access";
import { defineResourceRoutes } from "../define-resource-routes";

export const budgetsRoutes = defineResourceRoutes("finance", "budgets", {
  list: {
    method: "GET",
    path: "/api/v1/budgets",
    summary: "List budgets, newest period first",
    tag: "Budgets",
    query: BudgetListQuerySchema,
    response: BudgetCollectionSchema,
    status: 200,
    access: READ,
  },
  get: {
    method: "GET",
    path: "/api/v1/budgets/:id",
    summary: "Retrieve a budget with the period's actual spending and income",
    tag: "Budgets",
    params: IdParams,
    response: BudgetSchema,
    status: 200,
    access: READ,
  },
  create: {
    method: "POST",
    path: "/api/v1/budgets",
    summary: "Start the budget of the period containing a day (our extension; the same period again answers the existing budget with 200)",
    tag: "Budgets",
    body: CreateBudgetBodySchema,
    response: answerWith(BudgetSchema, [201, 200]),
    status: 201,
    statuses: [201, 200],
    access: WRITE,
  },
  update: {
    method: "PATCH",
    path: "/api/v1/budgets/:id",
    summary: "Set a budget's planned spending and expected income (our extension)",
    tag: "Budgets",
    params: IdParams,
    body: UpdateBudgetBodySchema,
    response: BudgetSchema,
    status: 200,
    access: WRITE,
  },
});
