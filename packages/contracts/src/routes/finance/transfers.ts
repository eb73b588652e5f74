import { z } from "zod";
import { defineResourceRoutes } from "../define-resource-routes";
import { IdParams, READ, WRITE } from "../../route-access";
import {
  CreateTransferBodySchema,
  TransferCollectionSchema,
  TransferListQuerySchema,
  TransferSchema,
  UpdateTransferBodySchema,
} from "../../resources/transfers";
import { DeleteResponseSchema } from "../../resources/common";

export const transfersRoutes = defineResourceRoutes("finance", "transfers", {
  list: {
    method: "GET",
    path: "/api/v1/transfers",
    summary: "List transfers (confirmed, and pending ones proposed by matching)",
    tag: "Transfers",
    query: TransferListQuerySchema,
    response: TransferCollectionSchema,
    status: 200,
    access: READ,
  },
  get: {
    method: "GET",
    path: "/api/v1/transfers/:id",
    summary: "Retrieve a transfer",
    tag: "Transfers",
    params: IdParams,
    response: TransferSchema,
    status: 200,
    access: READ,
  },
  create: {
    method: "POST",
    path: "/api/v1/transfers",
    summary: "Record a transfer between two accounts of the family (confirmed)",
    tag: "Transfers",
    body: CreateTransferBodySchema,
    response: TransferSchema,
    status: 201,
    access: WRITE,
  },
  update: {
    method: "PATCH",
    path: "/api/v1/transfers/:id",
    summary: "Confirm or reject a proposed transfer, or change its notes",
    tag: "Transfers",
    params: IdParams,
    body: UpdateTransferBodySchema,
    response: z.union([TransferSchema, DeleteResponseSchema]),
    status: 200,
    access: WRITE,
  },
  delete: {
    method: "DELETE",
    path: "/api/v1/transfers/:id",
    summary: "Unlink a transfer (both transactions stay)",
    tag: "Transfers",
    params: IdParams,
    response: DeleteResponseSchema,
    status: 200,
    access: WRITE,
  },
});
