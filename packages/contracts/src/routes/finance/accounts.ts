import { defineResourceRoutes } from "../define-resource-routes";
import { IdParams, READ, WRITE } from "../../route-access";
import {
  AccountCollectionSchema,
  AccountDetailSchema,
  AccountGetQuerySchema,
  AccountListQuerySchema,
  CreateAccountBodySchema,
  UpdateAccountBodySchema,
} from "../../resources/accounts";
import { DeleteResponseSchema } from "../../resources/common";

export const accountsRoutes = defineResourceRoutes("finance", "accounts", {
  list: {
    method: "GET",
    path: "/api/v1/accounts",
    summary: "List accounts (disabled ones only with include_disabled; never those pending deletion)",
    tag: "Accounts",
    query: AccountListQuerySchema,
    response: AccountCollectionSchema,
    status: 200,
    access: READ,
  },
  get: {
    method: "GET",
    path: "/api/v1/accounts/:id",
    summary: "Retrieve an account",
    tag: "Accounts",
    params: IdParams,
    query: AccountGetQuerySchema,
    response: AccountDetailSchema,
    status: 200,
    access: READ,
    sureErrors: { notFound: "Account not found" },
  },
  create: {
    method: "POST",
    path: "/api/v1/accounts",
    summary: "Create an account with an opening balance at a date",
    tag: "Accounts",
    body: CreateAccountBodySchema,
    response: AccountDetailSchema,
    status: 201,
    access: WRITE,
  },
  update: {
    method: "PATCH",
    path: "/api/v1/accounts/:id",
    summary: "Rename, re-describe, disable or re-enable an account",
    tag: "Accounts",
    params: IdParams,
    body: UpdateAccountBodySchema,
    response: AccountDetailSchema,
    status: 200,
    access: WRITE,
    sureErrors: { notFound: "Account not found" },
  },
  delete: {
    method: "DELETE",
    path: "/api/v1/accounts/:id",
    summary: "Schedule an account for deletion (pending_deletion, removed in the background)",
    tag: "Accounts",
    params: IdParams,
    response: DeleteResponseSchema,
    status: 200,
    access: WRITE,
    sureErrors: { notFound: "Account not found" },
  },
});
