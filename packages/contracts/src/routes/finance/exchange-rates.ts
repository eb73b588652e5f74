import { defineResourceRoutes } from "../define-resource-routes";
import { IdParams, READ, WRITE } from "../../route-access";
import {
  ExchangeRateCollectionSchema,
  ExchangeRateListQuerySchema,
  ExchangeRateSchema,
  UpsertExchangeRateAnswerSchema,
  UpsertExchangeRateBodySchema,
} from "../../resources/balance-sheet";

export const exchangeRatesRoutes = defineResourceRoutes("finance", "exchangeRates", {
  list: {
    method: "GET",
    path: "/api/v1/exchange_rates",
    summary: "List the family's stored exchange rates",
    tag: "Exchange Rates",
    query: ExchangeRateListQuerySchema,
    response: ExchangeRateCollectionSchema,
    status: 200,
    access: READ,
  },
  get: {
    method: "GET",
    path: "/api/v1/exchange_rates/:id",
    summary: "Retrieve an exchange rate",
    tag: "Exchange Rates",
    params: IdParams,
    response: ExchangeRateSchema,
    status: 200,
    access: READ,
  },
  upsert: {
    method: "POST",
    path: "/api/v1/exchange_rates",
    summary: "Store a rate for a currency pair and date (the same pair and date updates it)",
    tag: "Exchange Rates",
    body: UpsertExchangeRateBodySchema,
    response: UpsertExchangeRateAnswerSchema,
    status: 201,
    statuses: [201, 200],
    access: WRITE,
  },
});
