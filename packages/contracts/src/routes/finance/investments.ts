import { defineResourceRoutes } from "../define-resource-routes";
import { IdParams, READ, WRITE } from "../../route-access";
import { DeleteResponseSchema } from "../../resources/accounts";
import { HoldingCollectionSchema, HoldingListQuerySchema, HoldingSchema } from "../../resources/holdings";
import {
  RecordSecurityPricesBodySchema,
  RecordedSecurityPricesSchema,
  SecurityCollectionSchema,
  SecurityListQuerySchema,
  SecurityPriceCollectionSchema,
  SecurityPriceListQuerySchema,
  SecurityPriceSchema,
  SecuritySchema,
} from "../../resources/securities";
import {
  CreateTradeAnswerSchema,
  CreateTradeBodySchema,
  TradeCollectionSchema,
  TradeListQuerySchema,
  TradeSchema,
  UpdateTradeBodySchema,
} from "../../resources/trades";

export const tradesRoutes = defineResourceRoutes("finance", "trades", {
  list: {
    method: "GET",
    path: "/api/v1/trades",
    summary: "List trades (newest first)",
    tag: "Trades",
    query: TradeListQuerySchema,
    response: TradeCollectionSchema,
    status: 200,
    access: READ,
  },
  get: {
    method: "GET",
    path: "/api/v1/trades/:id",
    summary: "Retrieve a trade",
    tag: "Trades",
    params: IdParams,
    response: TradeSchema,
    status: 200,
    access: READ,
    sureErrors: { notFound: "Trade not found" },
  },
  create: {
    method: "POST",
    path: "/api/v1/trades",
    summary: "Record a buy, sell, dividend, interest, deposit or withdrawal in an investment or crypto account",
    tag: "Trades",
    body: CreateTradeBodySchema,
    response: CreateTradeAnswerSchema,
    status: 201,
    statuses: [201],
    access: WRITE,
    sureErrors: { notFound: "Account not found" },
  },
  update: {
    method: "PATCH",
    path: "/api/v1/trades/:id",
    summary: "Update a trade (a new qty or price recomputes its amount and name)",
    tag: "Trades",
    params: IdParams,
    body: UpdateTradeBodySchema,
    response: TradeSchema,
    status: 200,
    access: WRITE,
    sureErrors: { notFound: "Trade not found" },
  },
  delete: {
    method: "DELETE",
    path: "/api/v1/trades/:id",
    summary: "Delete a trade",
    tag: "Trades",
    params: IdParams,
    response: DeleteResponseSchema,
    status: 200,
    access: WRITE,
    sureErrors: { notFound: "Trade not found" },
  },
});

export const securitiesRoutes = defineResourceRoutes("finance", "securities", {
  list: {
    method: "GET",
    path: "/api/v1/securities",
    summary: "List the securities the family's accounts hold or trade",
    tag: "Securities",
    query: SecurityListQuerySchema,
    response: SecurityCollectionSchema,
    status: 200,
    access: READ,
  },
  get: {
    method: "GET",
    path: "/api/v1/securities/:id",
    summary: "Retrieve a security",
    tag: "Securities",
    params: IdParams,
    response: SecuritySchema,
    status: 200,
    access: READ,
    sureErrors: { notFound: "Security not found" },
  },
});

export const securityPricesRoutes = defineResourceRoutes("finance", "securityPrices", {
  list: {
    method: "GET",
    path: "/api/v1/security_prices",
    summary: "List prices of the family's securities",
    tag: "Security Prices",
    query: SecurityPriceListQuerySchema,
    response: SecurityPriceCollectionSchema,
    status: 200,
    access: READ,
  },
  get: {
    method: "GET",
    path: "/api/v1/security_prices/:id",
    summary: "Retrieve a security price",
    tag: "Security Prices",
    params: IdParams,
    response: SecurityPriceSchema,
    status: 200,
    access: READ,
    sureErrors: { notFound: "Security price not found" },
  },
  record: {
    method: "POST",
    path: "/api/v1/security_prices",
    summary: "Record prices (Hearth's extension): upserted per security and day; the accounts holding them are resynced",
    tag: "Security Prices",
    body: RecordSecurityPricesBodySchema,
    response: RecordedSecurityPricesSchema,
    status: 201,
    access: WRITE,
    sureErrors: { notFound: "Security not found" },
  },
});

export const holdingsRoutes = defineResourceRoutes("finance", "holdings", {
  list: {
    method: "GET",
    path: "/api/v1/holdings",
    summary: "List holdings: one row per account, security and day",
    tag: "Holdings",
    query: HoldingListQuerySchema,
    response: HoldingCollectionSchema,
    status: 200,
    access: READ,
  },
  get: {
    method: "GET",
    path: "/api/v1/holdings/:id",
    summary: "Retrieve a holding",
    tag: "Holdings",
    params: IdParams,
    response: HoldingSchema,
    status: 200,
    access: READ,
    sureErrors: { notFound: "Holding not found" },
  },
});
