import { defineResourceRoutes } from "../define-resource-routes";
import { IdParams, READ, WRITE } from "../../route-access";
import {
  CreateTransactionAnswerSchema,
  CreateTransactionBodySchema,
  TransactionCollectionSchema,
  TransactionListQuerySchema,
  TransactionSchema,
  UpdateTransactionBodySchema,
} from "../../resources/transactions";
import { DeleteResponseSchema } from "../../resources/common";

export const transactionsRoutes = defineResourceRoutes("finance", "transactions", {
  list: {
    method: "GET",
    path: "/api/v1/transactions",
    summary: "List transactions, newest first, with Sure's filters",
    tag: "Transactions",
    query: TransactionListQuerySchema,
    response: TransactionCollectionSchema,
    status: 200,
    access: READ,
  },
  get: {
    method: "GET",
    path: "/api/v1/transactions/:id",
    summary: "Retrieve a transaction",
    tag: "Transactions",
    params: IdParams,
    response: TransactionSchema,
    status: 200,
    access: READ,
    sureErrors: { notFound: "Transaction not found" },
  },
  create: {
    method: "POST",
    path: "/api/v1/transactions",
    summary: "Create a transaction (idempotent on external_id + source: a replay answers 200)",
    tag: "Transactions",
    body: CreateTransactionBodySchema,
    response: CreateTransactionAnswerSchema,
    status: 201,
    statuses: [201, 200],
    access: WRITE,
  },
  update: {
    method: "PATCH",
    path: "/api/v1/transactions/:id",
    summary: "Update a transaction (tag_ids replaces the tags; omit it to keep them)",
    tag: "Transactions",
    params: IdParams,
    body: UpdateTransactionBodySchema,
    response: TransactionSchema,
    status: 200,
    access: WRITE,
    sureErrors: { notFound: "Transaction not found" },
  },
  delete: {
    method: "DELETE",
    path: "/api/v1/transactions/:id",
    summary: "Delete a transaction",
    tag: "Transactions",
    params: IdParams,
    response: DeleteResponseSchema,
    status: 200,
    access: WRITE,
    sureErrors: { notFound: "Transaction not found" },
  },
});
