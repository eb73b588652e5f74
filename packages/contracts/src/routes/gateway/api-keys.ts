import { defineResourceRoutes } from "../define-resource-routes";
import { ApiKeyListSchema, CreateApiKeyBodySchema, CreatedApiKeySchema } from "../../resources/api-keys";
import { BEARER_READ, BEARER_WRITE, IdParams } from "../../route-access";

export const apiKeysRoutes = defineResourceRoutes("gateway", "apiKeys", {
  list: {
    method: "GET",
    path: "/api/v1/api_keys",
    summary: "List your API keys",
    tag: "API keys",
    response: ApiKeyListSchema,
    status: 200,
    access: BEARER_READ,
  },
  create: {
    method: "POST",
    path: "/api/v1/api_keys",
    summary: "Create an API key (the plain key is shown once)",
    tag: "API keys",
    body: CreateApiKeyBodySchema,
    response: CreatedApiKeySchema,
    status: 201,
    access: BEARER_WRITE,
  },
  revoke: {
    method: "DELETE",
    path: "/api/v1/api_keys/:id",
    summary: "Revoke one of your API keys",
    tag: "API keys",
    params: IdParams,
    response: null,
    status: 204,
    access: BEARER_WRITE,
  },
});
