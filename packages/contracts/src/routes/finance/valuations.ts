import { defineResourceRoutes } from "../define-resource-routes";
import { IdParams, READ, WRITE } from "../../route-access";
import {
  CreateValuationAnswerSchema,
  CreateValuationBodySchema,
  UpdateValuationBodySchema,
  ValuationCollectionSchema,
  ValuationListQuerySchema,
  ValuationSchema,
} from "../../resources/valuations";

export const valuationsRoutes = defineResourceRoutes("finance", "valuations", {
  list: {
    method: "GET",
    path: "/api/v1/valuations",
    summary: "List valuations",
    tag: "Valuations",
    query: ValuationListQuerySchema,
    response: ValuationCollectionSchema,
    status: 200,
    access: READ,
  },
  get: {
    method: "GET",
    path: "/api/v1/valuations/:id",
    summary: "Retrieve a valuation",
    tag: "Valuations",
    params: IdParams,
    response: ValuationSchema,
    status: 200,
    access: READ,
  },
  create: {
    method: "POST",
    path: "/api/v1/valuations",
    summary: "Record an account's balance on a date (one per account and date: the same date updates it)",
    tag: "Valuations",
    body: CreateValuationBodySchema,
    response: CreateValuationAnswerSchema,
    status: 201,
    statuses: [201, 200],
    access: WRITE,
  },
  update: {
    method: "PATCH",
    path: "/api/v1/valuations/:id",
    summary: "Update a valuation (amount and date together)",
    tag: "Valuations",
    params: IdParams,
    body: UpdateValuationBodySchema,
    response: ValuationSchema,
    status: 200,
    access: WRITE,
  },
});
