import { ASSISTANT_TOOLS_ACCESS, AssistantToolCallResultSchema, AssistantToolListSchema } from "@hearth/contracts";
import type { Logger } from "@hearth/service-kit";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import { authenticatedActor, type RouteBindingDeps } from "../http/route-binding";
import { createMcpServer, type ActorTools } from "./mcp-server";

// Express's request and response as route-binding takes them (only http/ imports express itself).
type HttpRequest = Parameters<typeof authenticatedActor>[1];
type HttpResponse = Parameters<typeof authenticatedActor>[2];

/** JSON-RPC's implementation-defined server error, as the SDK's own stateless example answers 405 with. */
const SERVER_ERROR = -32000;

function jsonRpcError(res: HttpResponse, status: number, code: number, message: string): void {
  res.status(status).json({ jsonrpc: "2.0", error: { code, message }, id: null });
}

/**
 * `/mcp`: the assistant's tools over the Model Context Protocol (Streamable HTTP), for MCP clients
 * such as Claude Desktop. Every request is authenticated like an API request (X-Api-Key or a bearer
 * token, counted against the credential's rate limit); without a credential it is the API's 401.
 *
 * Stateless: each POST gets a server and transport of its own, answered with JSON, so any gateway
 * instance serves any request and nothing outlives it. There is no session to resume or end and
 * the server sends nothing unasked, so GET (a notification stream) and DELETE answer 405, as the
 * specification allows. One message per POST: a JSON-RPC batch could run a hundred tool calls on
 * one rate-limited request (batches are gone from the protocol since 2025-06-18).
 */
export function mcpEndpoint(deps: RouteBindingDeps) {
  return async (req: HttpRequest, res: HttpResponse, next: (err?: unknown) => void): Promise<void> => {
    try {
      const actor = await authenticatedActor(ASSISTANT_TOOLS_ACCESS, req, res, deps);
      if (req.method !== "POST") {
        res.set("Allow", "POST");
        jsonRpcError(res, 405, SERVER_ERROR, "Method not allowed: this server is stateless; POST one JSON-RPC message per request");
        return;
      }
      if (Array.isArray(req.body)) {
        jsonRpcError(res, 400, ErrorCode.InvalidRequest, "Invalid Request: batches are not supported; POST one JSON-RPC message per request");
        return;
      }
      const context = { requestId: res.locals["requestId"] as string, actor };
      const chat = deps.services.chat;
      const tools: ActorTools = {
        list: async () => AssistantToolListSchema.parse(await chat("assistantTools.list", "mutation", {}, context)).tools,
        call: async (name, args) => AssistantToolCallResultSchema.parse(await chat("assistantTools.call", "mutation", { name, arguments: args }, context)),
      };
      const server = createMcpServer(tools, res.locals["log"] as Logger);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on("close", () => void server.close());
      await server.connect(transport);
      // The body express.json already read, within the gateway's body limit (null: none, which the transport refuses).
      await transport.handleRequest(req, res, req.body ?? null);
    } catch (err) {
      if (!res.headersSent) {
        next(err);
        return;
      }
      (res.locals["log"] as Logger).error({ err }, "an MCP request failed after its answer began");
      res.end();
    }
  };
}
