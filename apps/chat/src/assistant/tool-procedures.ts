import { AssistantToolErrorSchema, type Actor } from "@hearth/contracts";
import type { InternalHandlers, ServiceCall } from "@hearth/service-kit";
import { createFinanceClient } from "../finance-client";
import { createAssistantTools } from "./tools";

type ToolProcedures = Pick<InternalHandlers<"chat">, "assistantTools.list" | "assistantTools.call">;

/** A tool's `{ error, hint }` refusal, told apart from data: no tool's result has exactly these two fields. */
const isRefusal = (result: Record<string, unknown>) => AssistantToolErrorSchema.strict().safeParse(result).success;

/**
 * The assistant's tools for callers outside a chat (the gateway's MCP endpoint): the same tools,
 * checks and refusals as in an answer, for the acting credential's family and scopes. A finance
 * failure (down, a bug) fails the procedure, as it fails an answer.
 */
export function createAssistantToolProcedures(finance: ServiceCall): ToolProcedures {
  const toolsFor = ({ requestId, actor }: { requestId: string; actor: Actor }) =>
    createAssistantTools(createFinanceClient((procedure, kind, input) => finance(procedure, kind, input, { requestId, actor })));

  return {
    "assistantTools.list": async ({ ctx }) => ({
      tools: toolsFor(ctx)
        .specsFor(ctx.actor.scopes)
        .map((spec) => ({ name: spec.name, description: spec.description, input_schema: spec.parameters })),
    }),

    "assistantTools.call": async ({ ctx, input }) => {
      const result = await toolsFor(ctx).call(input.name, input.arguments, ctx.actor.scopes);
      return { result, is_error: isRefusal(result) };
    },
  };
}
