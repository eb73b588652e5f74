import { ASSISTANT_TOOL_NAMES, ASSISTANT_TOOLS, ScopeSchema, type AssistantToolName } from "@hearth/contracts";
import { z } from "zod";
import type { ToolSpec } from "../assistant-types";

/** Whether a credential's scopes allow the write tools. */
export const canWrite = (scopes: readonly string[]) => scopes.includes(ScopeSchema.enum.read_write);

/** Whether a credential with these scopes is offered the tool. */
export const offered = (name: AssistantToolName, scopes: readonly string[]) => ASSISTANT_TOOLS[name].access === "read" || canWrite(scopes);

/**
 * A JSON Schema without what a model reads for nothing: zod writes a long regex next to each
 * `format` (date, uuid) that says the same thing, and a `$schema` line.
 */
function compact(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(compact);
  if (typeof node !== "object" || node === null) return node;
  const entries = Object.entries(node).filter(([key]) => key !== "$schema" && !(key === "pattern" && "format" in node));
  return Object.fromEntries(entries.map(([key, value]) => [key, compact(value)]));
}

/** Every tool's spec, built once: the arguments as the model sends them (before defaults apply). */
const SPECS: ReadonlyMap<AssistantToolName, ToolSpec> = new Map(
  ASSISTANT_TOOL_NAMES.map((name) => {
    const tool = ASSISTANT_TOOLS[name];
    const parameters = compact(z.toJSONSchema(tool.args, { io: "input", unrepresentable: "any" })) as Record<string, unknown>;
    return [name, { name, description: tool.description, parameters }];
  }),
);

/** The specs of the tools a credential with these scopes may call. */
export function specsFor(scopes: readonly string[]): ToolSpec[] {
  return ASSISTANT_TOOL_NAMES.filter((name) => offered(name, scopes)).map((name) => SPECS.get(name)!);
}
