import { defineResourceRoutes } from "../define-resource-routes";
import { IdParams, READ, WRITE } from "../../route-access";
import { DeleteResponseSchema } from "../../resources/common";
import {
  CreateRecurringTransactionBodySchema,
  RecurringTransactionCollectionSchema,
  RecurringTransactionListQuerySchema,
  RecurringTransactionSchema,
  UpdateRecurringTransactionBodySchema,
} from "../../resources/recurring-transactions";

export const recurringTransactionsRoutes = defineResourceRoutes("finance", "recurringTransactions", {
  list: {
    method: "GET",
    path: "/api/v1/recurring_transactions",
    summary: "List recurring transactions (active first, then by next expected date)",
    tag: "Recurring Transactions",
    query: RecurringTransactionListQuerySchema,
    response: RecurringTransactionCollectionSchema,
    status: 200,
    access: READ,
  },
  get: {
    method: "GET",
    path: "/api/v1/recurring_transactions/:id",
    summary: "Retrieve a recurring transaction",
    tag: "Recurring Transactions",
    params: IdParams,
    response: RecurringTransactionSchema,
    status: 200,
    access: READ,
  },
  create: {
    method: "POST",
    path: "/api/v1/recurring_transactions",
    summary: "Create a recurring transaction (manual unless told otherwise)",
    tag: "Recurring Transactions",
    body: CreateRecurringTransactionBodySchema,
    response: RecurringTransactionSchema,
    status: 201,
    access: WRITE,
  },
  update: {
    method: "PATCH",
    path: "/api/v1/recurring_transactions/:id",
    summary: "Update a recurring transaction's status, expected day or next expected date",
    tag: "Recurring Transactions",
    params: IdParams,
    body: UpdateRecurringTransactionBodySchema,
    response: RecurringTransactionSchema,
    status: 200,
    access: WRITE,
  },
  delete: {
    method: "DELETE",
    path: "/api/v1/recurring_transactions/:id",
    summary: "Delete a recurring transaction",
    tag: "Recurring Transactions",
    params: IdParams,
    response: DeleteResponseSchema,
    status: 200,
    access: WRITE,
  },
});
