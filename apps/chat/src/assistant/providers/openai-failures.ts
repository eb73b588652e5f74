import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError, OpenAIError } from "openai";
import { AssistantFailure } from "../assistant-types";
import { MalformedCompletionStream } from "./openai-completion-accumulator";

/**
 * Turns whatever the OpenAI client or the stream threw into an `AssistantFailure` whose message is
 * safe to show: a fixed sentence with at most the HTTP status. The client's own messages are never
 * used, since they carry the provider's response body (which may quote the key). The cause kept for
 * the operator's logs is a short description built from the error's class, status and codes only.
 */

export const failureMessages = {
  unreachable: "The assistant's provider could not be reached",
  timedOut: "The assistant's provider did not answer in time",
  malformed: "The assistant's provider sent an answer that could not be read",
  brokeOff: "The assistant's provider broke off its answer",
  errorWhileAnswering: "The assistant's provider reported an error while answering",
  failed: "The assistant's provider failed",
  refused: (status: number) => `The assistant's provider refused the request (HTTP ${status})`,
  rateLimited: (status: number) => `The assistant's provider is rate limiting requests (HTTP ${status}); try again shortly`,
  serverError: (status: number) => `The assistant's provider failed (HTTP ${status})`,
  tooManyRounds: (rounds: number) => `The assistant looked things up ${rounds} times without reaching an answer`,
} as const;

/** Where the call was when it failed: before the answer started streaming, or while reading it. */
export type CallPhase = "request" | "stream";

export function timeoutFailure(): AssistantFailure {
  return new AssistantFailure(failureMessages.timedOut, { cause: new Error("openai-compatible: no answer within the timeout") });
}

export function providerFailure(error: unknown, phase: CallPhase): AssistantFailure {
  if (error instanceof AssistantFailure) return error;
  const cause = new Error(`openai-compatible (${phase}): ${describe(error)}`);
  if (error instanceof APIConnectionTimeoutError) return new AssistantFailure(failureMessages.timedOut, { cause });
  if (error instanceof APIConnectionError) return new AssistantFailure(failureMessages.unreachable, { cause });
  // Aborts by the caller are handled before this; one reaching here is the client's own.
  if (error instanceof APIUserAbortError) return new AssistantFailure(failureMessages.failed, { cause });
  if (error instanceof APIError) {
    const status = error.status;
    // No status: an error event inside an otherwise healthy stream.
    if (typeof status !== "number") return new AssistantFailure(failureMessages.errorWhileAnswering, { cause });
    if (status === 429) return new AssistantFailure(failureMessages.rateLimited(status), { cause });
    if (status >= 500) return new AssistantFailure(failureMessages.serverError(status), { cause });
    return new AssistantFailure(failureMessages.refused(status), { cause });
  }
  if (error instanceof MalformedCompletionStream || error instanceof SyntaxError) return new AssistantFailure(failureMessages.malformed, { cause });
  if (error instanceof OpenAIError) return new AssistantFailure(failureMessages.failed, { cause });
  // Anything else while streaming is the body breaking off (e.g. undici's "terminated").
  return new AssistantFailure(phase === "stream" ? failureMessages.brokeOff : failureMessages.failed, { cause });
}

/** Class, HTTP status, provider error code and system error codes: nothing from a body or a header. */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return typeof error;
  const parts = [error.name];
  if (error instanceof MalformedCompletionStream) parts.push(error.message);
  if (error instanceof APIError) {
    if (typeof error.status === "number") parts.push(`status=${error.status}`);
    if (typeof error.code === "string") parts.push(`code=${clip(error.code)}`);
    if (typeof error.type === "string") parts.push(`type=${clip(error.type)}`);
  }
  const systemCode = systemErrorCode(error);
  if (systemCode) parts.push(`cause=${systemCode}`);
  return parts.join(" ");
}

/** The first `code` like ECONNREFUSED in the chain of causes. */
function systemErrorCode(error: Error): string | undefined {
  let current: unknown = error.cause;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && /^[A-Z][A-Z0-9_]{1,40}$/.test(code)) return code;
    current = current.cause;
  }
  return undefined;
}

function clip(value: string): string {
  return value.replace(/[^\w.-]/g, "_").slice(0, 64);
}
