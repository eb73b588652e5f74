import { defineResourceRoutes } from "../define-resource-routes";
import { IdParams, READ } from "../../route-access";
import { RejectedTransferCollectionSchema, RejectedTransferListQuerySchema, RejectedTransferSchema } from "../../resources/transfers";

export const rejectedTransfersRoutes = defineResourceRoutes("finance", "rejectedTransfers", {
  list: {
    method: "GET",
    path: "/api/v1/rejected_transfers",
    summary: "List pairs rejected as transfers (never proposed again)",
    tag: "Rejected Transfers",
    query: RejectedTransferListQuerySchema,
    response: RejectedTransferCollectionSchema,
    status: 200,
    access: READ,
  },
  get: {
    method: "GET",
    path: "/api/v1/rejected_transfers/:id",
    summary: "Retrieve a rejected transfer",
    tag: "Rejected Transfers",
    params: IdParams,
    response: RejectedTransferSchema,
    status: 200,
    access: READ,
  },
});
