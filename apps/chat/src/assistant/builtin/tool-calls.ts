import { ASSISTANT_TOOLS, AssistantToolErrorSchema, type AssistantToolName, type AssistantToolResult } from "@hearth/contracts";
import type { z } from "zod";
import type { ReplyIo } from "../assistant-types";

/** A tool's `{ error, hint }` answer (or a result not of its contract's shape): the answer says it couldn't get the data. */
export class ToolUnavailable extends Error {
  constructor(
    readonly tool: AssistantToolName,
    readonly code: string,
  ) {
    super(`${tool} answered ${code}`);
    this.name = "ToolUnavailable";
  }
}

/** The arguments a tool takes, before its defaults are applied. */
export type ToolArgs<N extends AssistantToolName> = z.input<(typeof ASSISTANT_TOOLS)[N]["args"]>;

/** Calls tools through the runner (which records each call) and hands back results of the contract's shape. */
export interface Tools {
  call<N extends AssistantToolName>(name: N, args: ToolArgs<N>): Promise<AssistantToolResult<N>>;
}

/**
 * Tools over a reply's io: stops as soon as the reply is aborted (before and after each call),
 * and turns an `{ error, hint }` answer or a malformed result into ToolUnavailable.
 */
export function toolsOf(io: Pick<ReplyIo, "callTool" | "signal">): Tools {
  return {
    async call(name, args) {
      io.signal.throwIfAborted();
      const result = await io.callTool(name, args);
      io.signal.throwIfAborted();
      const failure = AssistantToolErrorSchema.safeParse(result);
      if (failure.success) throw new ToolUnavailable(name, failure.data.error);
      const parsed = ASSISTANT_TOOLS[name].result.safeParse(result);
      if (!parsed.success) throw new ToolUnavailable(name, "unexpected_result");
      return parsed.data as AssistantToolResult<typeof name>;
    },
  };
}
