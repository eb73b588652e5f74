import { defineResourceRoutes } from "../define-resource-routes";
import { UsageSchema } from "../../resources/usage";
import { READ } from "../../route-access";

export const usageRoutes = defineResourceRoutes("gateway", "usage", {
  get: {
    method: "GET",
    path: "/api/v1/usage",
    summary: "The calling API key's usage and rate limit (a bearer token gets a notice: usage is tracked per API key)",
    tag: "Usage",
    response: UsageSchema,
    status: 200,
    access: READ,
  },
});
