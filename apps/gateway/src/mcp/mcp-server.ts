import { AppError, ASSISTANT_TOOLS, type AssistantToolCallResult, type AssistantToolDescription } from "@hearth/contracts";
import type { Logger } from "@hearth/service-kit";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";

/** The assistant's tools as chat serves them to one credential (bound to its actor and request). */
export interface ActorTools {
  list(): Promise<AssistantToolDescription[]>;
  call(name: string, args: Record<string, unknown>): Promise<AssistantToolCallResult>;
}

const SERVER_INFO = { name: "hearth", version: "1.0.0" };

const INSTRUCTIONS =
  "Tools over one family's finances in Hearth: accounts, transactions, balance sheet, income statement, budget, holdings, recurring transactions, categories, merchants and tags. " +
  "Money comes as a display string and an integer `<name>_cents` in minor units; dates are YYYY-MM-DD. " +
  "A result with `error` and `hint` says how to call the tool right. Write tools appear only for a read_write credential.";

/** Made once: the server uses it only for elicitation, which these tools never ask for. */
const validator = new AjvJsonSchemaValidator();

function toolOf(description: AssistantToolDescription): Tool {
  const access = Object.hasOwn(ASSISTANT_TOOLS, description.name) ? ASSISTANT_TOOLS[description.name as keyof typeof ASSISTANT_TOOLS].access : "write";
  return {
    name: description.name,
    description: description.description,
    inputSchema: { ...description.input_schema, type: "object" },
    annotations: { readOnlyHint: access === "read", openWorldHint: false },
  };
}

/** A tool's answer as MCP's: the JSON as text (what every client reads) and as structured content. */
function resultOf(result: Record<string, unknown>, isError: boolean): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(result) }], structuredContent: result, ...(isError && { isError: true }) };
}

/**
 * Chat failing (down, timed out, a bug) is a JSON-RPC error with a message safe to show: an
 * AppError's is (the service client keeps a service's own message only for its known errors).
 */
function failure(err: unknown, log: Logger, what: string): McpError {
  log.warn({ err }, `MCP ${what} failed`);
  return new McpError(ErrorCode.InternalError, err instanceof AppError ? err.message : "An unexpected error occurred");
}

/**
 * An MCP server for one request of one credential, serving the assistant's tools. The low-level
 * Server (not McpServer): the tools are chat's, known as JSON Schema and per credential, not
 * registered here with zod schemas.
 */
export function createMcpServer(tools: ActorTools, log: Logger): Server {
  const server = new Server(SERVER_INFO, { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS, jsonSchemaValidator: validator });

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    try {
      return { tools: (await tools.list()).map(toolOf) };
    } catch (err) {
      throw failure(err, log, "tools/list");
    }
  });

  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args = {} } = request.params;
    try {
      const answer = await tools.call(name, args);
      return resultOf(answer.result, answer.is_error);
    } catch (err) {
      // Chat refusing the call itself (a name or arguments past its limits) is the caller's to fix.
      if (err instanceof AppError && err.code === "validation_failed") return resultOf({ error: "invalid_arguments", hint: err.message }, true);
      throw failure(err, log, "tools/call");
    }
  });

  return server;
}
