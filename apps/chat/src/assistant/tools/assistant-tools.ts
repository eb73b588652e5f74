import { AppError, ASSISTANT_TOOL_ARGUMENTS_MAX_BYTES, ASSISTANT_TOOLS, type AssistantToolError, type AssistantToolName } from "@hearth/contracts";
import type { z } from "zod";
import type { FinanceClient } from "../../finance-client";
import type { ToolResult, ToolSpec } from "../assistant-types";
import { accountTools } from "./account-tools";
import { budgetTool } from "./budget-tool";
import { holdingsTool } from "./holdings-tool";
import { incomeStatementTool } from "./income-statement-tool";
import { labelTools } from "./label-tools";
import { recurringTool } from "./recurring-tool";
import { ToolRefusal, type ToolHandlers } from "./tool-handlers";
import { offered, specsFor } from "./tool-specs";
import { transactionTools } from "./transaction-tools";

const isToolName = (name: string): name is AssistantToolName => Object.hasOwn(ASSISTANT_TOOLS, name);

/** Zod's complaints as one line a model can act on: "per_page: Too big: expected number to be <=100; ...". */
function hintOf(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.length > 0 ? issue.path.join(".") : "arguments"}: ${issue.message}`).join("; ");
}

const refusal = (error: string, hint: string): AssistantToolError => ({ error, hint });

/**
 * A result larger than this (UTF-8 JSON) is refused rather than stored and sent to a model: a page
 * of transactions with long notes can reach a megabyte, and an answer may call 40 tools.
 */
export const MAX_TOOL_RESULT_BYTES = 256 * 1024;

const jsonBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value) ?? "", "utf8");

/**
 * The assistant's tools for one asking actor: `finance` is already bound to them, so every tool
 * sees their family only. A wrong name, wrong arguments, a write without write scope, or a
 * finance refusal (a 4xx: not found, validation) is an `{ error, hint }` result the model can
 * recover from; anything else (a bug, finance down) is thrown.
 */
export function createAssistantTools(finance: FinanceClient): {
  specsFor(scopes: readonly string[]): ToolSpec[];
  call(name: string, args: unknown, scopes: readonly string[]): Promise<ToolResult>;
} {
  const handlers: ToolHandlers = {
    ...accountTools(finance),
    ...transactionTools(finance),
    ...incomeStatementTool(finance),
    ...budgetTool(finance),
    ...holdingsTool(finance),
    ...recurringTool(finance),
    ...labelTools(finance),
  };

  async function call(name: string, args: unknown, scopes: readonly string[]): Promise<ToolResult> {
    if (!isToolName(name)) {
      return refusal(
        "unknown_tool",
        // A model may invent any name, of any length: it is quoted short.
        `There is no tool named "${name.slice(0, 100)}". Available tools: ${specsFor(scopes)
          .map((spec) => spec.name)
          .join(", ")}`,
      );
    }
    if (!offered(name, scopes)) {
      return refusal(
        "forbidden",
        `${name} changes the family's data and needs a credential with read_write scope; this one is read-only (scopes: ${scopes.join(", ") || "none"}). Tell the user instead.`,
      );
    }
    const tool = ASSISTANT_TOOLS[name];
    if (jsonBytes(args) > ASSISTANT_TOOL_ARGUMENTS_MAX_BYTES) {
      return refusal(
        "invalid_arguments",
        `The arguments are larger than ${ASSISTANT_TOOL_ARGUMENTS_MAX_BYTES / 1024} KB; every tool's arguments fit in a few KB.`,
      );
    }
    // A model often sends nothing (or null) for a tool without arguments.
    const parsed = tool.args.safeParse(args ?? {});
    if (!parsed.success) return refusal("invalid_arguments", hintOf(parsed.error));
    try {
      const handler = handlers[name] as (args: unknown) => Promise<unknown>;
      const result = tool.result.parse(await handler(parsed.data)) as ToolResult;
      if (jsonBytes(result) > MAX_TOOL_RESULT_BYTES) {
        return refusal("result_too_large", `The result is larger than ${MAX_TOOL_RESULT_BYTES / 1024} KB: ask for fewer rows (per_page) or a shorter period.`);
      }
      return result;
    } catch (err) {
      if (err instanceof ToolRefusal) return refusal(err.code, err.hint);
      // Finance refusing the call (not found, validation, scope) is the model's to recover from;
      // finance failing (unavailable, a bug) is not, and fails the answer.
      if (err instanceof AppError && err.status < 500) return refusal(err.code, err.message);
      throw err;
    }
  }

  return { specsFor, call };
}
