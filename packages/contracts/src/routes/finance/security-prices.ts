import { defineResourceRoutes } from "../define-resource-routes";
import { IdParams, READ, WRITE } from "../../route-access";
import {
  RecordSecurityPricesBodySchema,
  RecordedSecurityPricesSchema,
  SecurityPriceCollectionSchema,
  SecurityPriceListQuerySchema,
  SecurityPriceSchema,
} from "../../resources/securities";

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
