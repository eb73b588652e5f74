import { z } from "zod";
import { defineResourceRoutes } from "../define-resource-routes";
import { BooleanParamSchema } from "../../primitives";
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
    sureErrors: { notFound: "Valuation not found" },
  },
  create: {
    method: "POST",
    path: "/api/v1/valuations",
    summary: "Record an account's balance on a date (one per account and date: the same date updates it)",
    tag: "Valuations",
    // Rails reads `upsert` from the query string too (params merge query and body; the body wins).
    query: z.object({ upsert: BooleanParamSchema.optional() }),
    body: CreateValuationBodySchema,
    response: CreateValuationAnswerSchema,
    status: 201,
    statuses: [201, 200],
    access: WRITE,
    sureErrors: { notFound: "Account or valuation entry not found" },
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
    sureErrors: { notFound: "Valuation not found" },
  },
});
