import { BudgetCategoryCollectionSchema, BudgetCategoryListQuerySchema, BudgetCategorySchema, UpdateBudgetCategoryBodySchema } from "../../resources/budgets";
import { IdParams, READ, WRITE } from "../../route-access";
import { defineResourceRoutes } from "../define-resource-routes";

export const budgetCategoriesRoutes = defineResourceRoutes("finance", "budgetCategories", {
  list: {
    method: "GET",
    path: "/api/v1/budget_categories",
    summary: "List budget categories (newest budget first, then by category name)",
    tag: "Budget Categories",
    query: BudgetCategoryListQuerySchema,
    response: BudgetCategoryCollectionSchema,
    status: 200,
    access: READ,
  },
  get: {
    method: "GET",
    path: "/api/v1/budget_categories/:id",
    summary: "Retrieve a budget category with its actual spending, rollover and what is left",
    tag: "Budget Categories",
    params: IdParams,
    response: BudgetCategorySchema,
    status: 200,
    access: READ,
  },
  update: {
    method: "PATCH",
    path: "/api/v1/budget_categories/:id",
    summary: "Set a budget category's limit or rollover (our extension)",
    tag: "Budget Categories",
    params: IdParams,
    body: UpdateBudgetCategoryBodySchema,
    response: BudgetCategorySchema,
    status: 200,
    access: WRITE,
  },
});
