import { z } from "zod";
import { READ } from "../route-access";

// The assistant's tools served outside a chat (the gateway's MCP endpoint): chat lists them for
// the acting credential and runs one call, with the same checks as in an answer. Nothing of a
// call is stored: there is no message to attach it to.

/**
 * Who reaches the tools outside a chat: any credential (API key or bearer token) with read scope,
 * as the API's read routes; the write tools further need read_write. The tools read nothing the
 * API does not, so AI need not be turned on (Sure's MCP endpoint does not ask either).
 */
export const ASSISTANT_TOOLS_ACCESS = READ;

/** The largest arguments object a call takes, as UTF-8 JSON: every tool's real arguments fit in a few KB. */
export const ASSISTANT_TOOL_ARGUMENTS_MAX_BYTES = 64 * 1024;

const jsonBytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;

export const AssistantToolListInputSchema = z.object({});

export const AssistantToolDescriptionSchema = z.object({
  name: z.string(),
  description: z.string(),
  /** The arguments as a JSON Schema object, as a model sends them (before defaults apply). */
  input_schema: z.record(z.string(), z.unknown()),
});
export type AssistantToolDescription = z.infer<typeof AssistantToolDescriptionSchema>;

/** The tools the acting credential may call: write tools only with read_write scope. */
export const AssistantToolListSchema = z.object({ tools: z.array(AssistantToolDescriptionSchema) });
export type AssistantToolList = z.infer<typeof AssistantToolListSchema>;

export const AssistantToolCallInputSchema = z.object({
  name: z.string().min(1).max(100),
  arguments: z.record(z.string(), z.unknown()).refine((args) => jsonBytes(args) <= ASSISTANT_TOOL_ARGUMENTS_MAX_BYTES, {
    message: `arguments must be at most ${ASSISTANT_TOOL_ARGUMENTS_MAX_BYTES / 1024} KB of JSON`,
  }),
});
export type AssistantToolCallInput = z.infer<typeof AssistantToolCallInputSchema>;

/**
 * A tool's answer: its data, or (`is_error`) an `{ error, hint }` the caller can act on (unknown
 * tool, bad arguments, write without write scope, not found). A failure of a service is not an
 * answer: the procedure fails.
 */
export const AssistantToolCallResultSchema = z.object({
  result: z.record(z.string(), z.unknown()),
  is_error: z.boolean(),
});
export type AssistantToolCallResult = z.infer<typeof AssistantToolCallResultSchema>;
