import type { AssistantToolArgs, AssistantToolName, AssistantToolResult } from "@hearth/contracts";

/** What each tool does with its parsed arguments; the dispatcher checks the result against the contract. */
export type ToolHandlers = { [N in AssistantToolName]: (args: AssistantToolArgs<N>) => Promise<AssistantToolResult<N>> };

/**
 * A call the tool answers with `{ error, hint }` instead of data (e.g. no budget for that month):
 * the model can recover from it by asking differently.
 */
export class ToolRefusal extends Error {
  constructor(
    readonly code: string,
    readonly hint: string,
  ) {
    super(`${code}: ${hint}`);
    this.name = "ToolRefusal";
  }
}
