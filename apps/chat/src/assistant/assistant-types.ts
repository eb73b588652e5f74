/**
 * The seam between the reply runner (which stores messages and tool calls) and whatever produces
 * a reply: the built-in assistant or a model behind an OpenAI-compatible endpoint. A provider sees
 * the conversation, the tools it may call and the family's formatting facts; it calls tools only
 * through `callTool` (which records each call) and streams its text through `onText`.
 */

/** One turn of the conversation as a provider sees it, oldest first; the last is the question. */
export interface ConversationTurn {
  role: "user" | "assistant";
  content: string;
}

/** A tool a provider may call: its name, what it is for, and its arguments as a JSON Schema object. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** A tool's answer: its data, or `{ error, hint }` when the name or the arguments were wrong (never thrown). */
export type ToolResult = Record<string, unknown>;

/** What a reply needs to know of the family to word its figures: from the family's settings. */
export interface FamilyFacts {
  /** ISO 4217, e.g. "USD": the currency totals are reported in. */
  currency: string;
  /** BCP 47, e.g. "en-US": how numbers and dates are written. */
  locale: string;
  /** IANA zone or null (then UTC): what "today" and "last month" mean. */
  timezone: string | null;
  /** Today in the family's timezone, YYYY-MM-DD. */
  today: string;
}

/**
 * Arguments a model sent that could not be read (not JSON): passed to `callTool` as they are, so
 * the attempt is recorded like any call, with `result` (an `{ error, hint }`) as its answer.
 */
export class UnreadableArguments {
  constructor(
    readonly raw: string,
    readonly result: ToolResult,
  ) {}
}

export interface ReplyIo {
  history: readonly ConversationTurn[];
  /** The tools this credential may use (write tools only with write scope). */
  tools: readonly ToolSpec[];
  /** Runs a tool for the asking family and records the call; resolves to its result, rejects only when the reply was aborted. */
  callTool(name: string, args: unknown): Promise<ToolResult>;
  /** A piece of the answer's text, as it is produced (streamed to clients). */
  onText(delta: string): void;
  family: FamilyFacts;
  /** Aborted when the reply times out or its chat is deleted: stop and reject. */
  signal: AbortSignal;
}

export interface AssistantProvider {
  /** The model names this provider answers to. */
  readonly models: readonly string[];
  /** Produces the answer to the last turn; resolves to the whole text (the concatenation of `onText`'s deltas). */
  reply(model: string, io: ReplyIo): Promise<{ content: string }>;
}

/**
 * A reply that could not be produced, with a message safe to show the user (no key, no stack, no
 * provider body). Anything else thrown by a provider is reported with a generic message.
 */
export class AssistantFailure extends Error {
  constructor(
    readonly safeMessage: string,
    options?: { cause?: unknown },
  ) {
    super(safeMessage, options);
    this.name = "AssistantFailure";
  }
}
