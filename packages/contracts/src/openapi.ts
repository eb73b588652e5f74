import { z } from "zod";
import { ErrorBodySchema } from "./errors";
import type { RouteDef } from "./route";
import { routes } from "./routes";

type JsonSchema = Record<string, unknown>;

function schemaOf(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
  return rest;
}

function parametersOf(route: RouteDef): JsonSchema[] {
  const parameters: JsonSchema[] = [];
  for (const [location, schema] of [
    ["path", route.params],
    ["query", route.query],
  ] as const) {
    if (!schema) continue;
    const json = schemaOf(schema, "input") as { properties?: Record<string, JsonSchema>; required?: string[] };
    for (const [name, property] of Object.entries(json.properties ?? {})) {
      parameters.push({ name, in: location, required: location === "path" || (json.required ?? []).includes(name), schema: property });
    }
  }
  return parameters;
}

const ERROR_RESPONSE = { description: "Error", content: { "application/json": { schema: { $ref: "#/components/schemas/ErrorResponse" } } } };

function responseOf(route: RouteDef): Record<string, unknown> {
  if (route.status === 302) return { description: "Redirect", headers: { Location: { schema: { type: "string" } } } };
  if (!route.response) return { description: "No content" };
  // A route with several statuses answers the `body` of its `{ status, body }` output.
  const schema = route.statuses ? (route.response as z.ZodObject<{ body: z.ZodType }>).shape.body : route.response;
  return { description: "Success", content: { "application/json": { schema: schemaOf(schema, "output") } } };
}

function responsesOf(route: RouteDef): Record<string, unknown> {
  const responses: Record<string, unknown> = {};
  for (const status of route.statuses ?? [route.status]) responses[String(status)] = responseOf(route);
  return { ...responses, default: ERROR_RESPONSE };
}

/** The public API as OpenAPI 3.1, derived from the route table: nothing is described twice. */
export function buildOpenApiDocument(serverUrl = "/"): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of Object.values(routes) as RouteDef[]) {
    const path = route.path.replace(/:([A-Za-z_]+)/g, "{$1}");
    const operation: Record<string, unknown> = {
      operationId: route.procedure,
      summary: route.summary,
      tags: [route.tag],
      parameters: parametersOf(route),
      responses: responsesOf(route),
      security: route.access.auth === "public" ? [] : route.access.auth === "bearer" ? [{ bearerAuth: [] }] : [{ apiKeyAuth: [] }, { bearerAuth: [] }],
      "x-hearth-access": route.access,
    };
    if (route.body) operation["requestBody"] = { required: true, content: { "application/json": { schema: schemaOf(route.body, "input") } } };
    (paths[path] ??= {})[route.method.toLowerCase()] = operation;
  }
  return {
    openapi: "3.1.0",
    info: { title: "Hearth API", version: "v1", description: "Household finance API, compatible with Sure's v1 clients." },
    servers: [{ url: serverUrl }],
    components: {
      securitySchemes: {
        apiKeyAuth: { type: "apiKey", in: "header", name: "X-Api-Key" },
        bearerAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT" },
      },
      schemas: { ErrorResponse: schemaOf(ErrorBodySchema, "output") },
    },
    paths,
  };
}
