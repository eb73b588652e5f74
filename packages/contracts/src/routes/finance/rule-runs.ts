import { defineResourceRoutes } from "../define-resource-routes";
import { IdParams, READ } from "../../route-access";
import { RuleRunCollectionSchema, RuleRunListQuerySchema, RuleRunResponseSchema } from "../../resources/rules";

export const ruleRunsRoutes = defineResourceRoutes("finance", "ruleRuns", {
  list: {
    method: "GET",
    path: "/api/v1/rule_runs",
    summary: "List the family's rule runs, newest first",
    tag: "Rule Runs",
    query: RuleRunListQuerySchema,
    response: RuleRunCollectionSchema,
    status: 200,
    access: READ,
  },
  get: {
    method: "GET",
    path: "/api/v1/rule_runs/:id",
    summary: "Retrieve a rule run",
    tag: "Rule Runs",
    params: IdParams,
    response: RuleRunResponseSchema,
    status: 200,
    access: READ,
  },
});
