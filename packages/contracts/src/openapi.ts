import { z } from "zod";
import { ErrorBodySchema } from "./errors";
import { methodsOf, type RouteDef } from "./route";
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
      const parameter: JsonSchema = { name, in: location, required: location === "path" || (json.required ?? []).includes(name), schema: property };
      // Lists repeat their key; Rails clients' `name[]=` is read the same way.
      if (property["type"] === "array")
        Object.assign(parameter, { style: "form", explode: true, description: `Repeat the key (${name}=a&${name}=b); ${name}[]=a is read the same way` });
      parameters.push(parameter);
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

/** A CSV upload is a multipart form with the file in its field; any other body is JSON. */
function requestBodyOf(route: RouteDef): Operation["requestBody"] {
  if (route.upload) {
    const { field, columns, required, maxBytes, maxRows } = route.upload;
    const description = `A CSV file (at most ${maxBytes} bytes and ${maxRows} rows) with a header row; columns read: ${Object.values(columns)
      .map((names) => names[0])
      .join(", ")}; required: ${required.join(", ")}`;
    const schema = { type: "object", required: [field], properties: { [field]: { type: "string", format: "binary", description } } };
    return { required: true, content: { "multipart/form-data": { schema } } };
  }
  if (route.fileUpload && route.body) {
    // The same fields either way: as JSON with the file's text in contentField, or as a form with the file in field.
    const json = schemaOf(route.body, "input") as { properties?: Record<string, unknown> };
    const { field, contentField, maxBytes } = route.fileUpload;
    const { [contentField]: _content, ...others } = json.properties ?? {};
    const description = `The file (at most ${maxBytes} bytes), instead of ${contentField}`;
    const form = { type: "object", properties: { ...others, [field]: { type: "string", format: "binary", description } } };
    return { required: true, content: { "application/json": { schema: json }, "multipart/form-data": { schema: form } } };
  }
  return route.body ? { required: true, content: { "application/json": { schema: schemaOf(route.body, "input") } } } : undefined;
}

interface Operation {
  summary: string;
  responses: Record<string, unknown>;
  requestBody?: { required: boolean; content: Record<string, unknown> };
  [key: string]: unknown;
}

/** Two routes on one method and path (a JSON body or a CSV upload) are one operation taking either. */
function merged(first: Operation, second: Operation): Operation {
  const responses = { ...first.responses };
  for (const [status, response] of Object.entries(second.responses)) {
    const mine = responses[status] as { content?: Record<string, { schema: unknown }> } | undefined;
    const theirs = response as { content?: Record<string, { schema: unknown }> };
    const a = mine?.content?.["application/json"]?.schema;
    const b = theirs.content?.["application/json"]?.schema;
    const differ = a !== undefined && b !== undefined && JSON.stringify(a) !== JSON.stringify(b);
    responses[status] = differ ? { description: "Success", content: { "application/json": { schema: { oneOf: [a, b] } } } } : (mine ?? response);
  }
  return {
    ...first,
    summary: `${first.summary}; or ${second.summary.charAt(0).toLowerCase()}${second.summary.slice(1)}`,
    requestBody: { required: true, content: { ...first.requestBody?.content, ...second.requestBody?.content } },
    responses,
    "x-hearth-procedures": [first["operationId"], second["operationId"]],
  };
}

const SECURED = [{ apiKeyAuth: [] }, { bearerAuth: [] }];
const ERROR = (description: string) => ({ description, content: { "application/json": { schema: { $ref: "#/components/schemas/ErrorResponse" } } } });

/** The two endpoints the gateway mounts by hand (they are not JSON routes of the table), so the document lists every path. */
const HAND_MOUNTED: Record<string, Record<string, Operation>> = {
  "/api/v1/chats/{chat_id}/messages/{id}/stream": {
    get: {
      operationId: "messages.stream",
      summary: "Stream an answer as server-sent events (our extension): text deltas, tool calls as they happen, then one done event",
      description:
        "`event: text` data `{delta}`; `event: tool_call` data a ToolCall; `event: done` data `{message_id, status, error}`. `id` is the answer's message, or a question (then its latest answer). An answer already ended streams at once.",
      tags: ["Chat Messages"],
      parameters: ["chat_id", "id"].map((name) => ({ name, in: "path", required: true, schema: { type: "string", format: "uuid" } })),
      security: SECURED,
      responses: {
        "200": { description: "The answer's events", content: { "text/event-stream": { schema: { type: "string" } } } },
        "401": ERROR("No or a bad credential"),
        "403": ERROR("AI is not turned on for the user, or is off for their family (feature_disabled)"),
        "404": ERROR("No such chat or message of the user"),
      },
    },
  },
  "/mcp": {
    post: {
      operationId: "mcp",
      summary: "The assistant's tools over the Model Context Protocol (Streamable HTTP, stateless: one JSON-RPC message per POST)",
      tags: ["MCP"],
      security: SECURED,
      requestBody: { required: true, content: { "application/json": { schema: { type: "object" } } } },
      responses: {
        "200": { description: "A JSON-RPC response", content: { "application/json": { schema: { type: "object" } } } },
        "202": { description: "A notification, accepted" },
        "401": ERROR("No or a bad credential"),
      },
    },
  },
};

/** The public API as OpenAPI 3.1, derived from the route table: nothing is described twice. */
export function buildOpenApiDocument(serverUrl = "/"): JsonSchema {
  const paths: Record<string, Record<string, Operation>> = {};
  for (const route of Object.values(routes) as RouteDef[]) {
    const path = route.path.replace(/:([A-Za-z_]+)/g, "{$1}");
    for (const method of methodsOf(route)) {
      const operation: Operation = {
        operationId: method === route.method ? route.procedure : `${route.procedure}.${method.toLowerCase()}`,
        summary: route.summary,
        ...(method === route.method ? {} : { description: `The same as ${route.method}: Rails routes ${method} like ${route.method}.` }),
        tags: [route.tag],
        parameters: parametersOf(route),
        responses: responsesOf(route),
        security: route.access.auth === "public" ? [] : route.access.auth === "bearer" ? [{ bearerAuth: [] }] : [{ apiKeyAuth: [] }, { bearerAuth: [] }],
        "x-hearth-access": route.access,
      };
      const requestBody = requestBodyOf(route);
      if (requestBody) operation.requestBody = requestBody;
      const operations = (paths[path] ??= {});
      const verb = method.toLowerCase();
      const existing = operations[verb];
      operations[verb] = existing ? merged(existing, operation) : operation;
    }
  }
  Object.assign(paths, HAND_MOUNTED);
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
