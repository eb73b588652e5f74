import OpenAI from "openai";
import type { ChatCompletionCreateParamsStreaming, ChatCompletionFunctionTool, ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { AssistantFailure, UnreadableArguments, type AssistantProvider, type ReplyIo } from "../assistant-types";
import { CompletionAccumulator, type AccumulatedCompletion } from "./openai-completion-accumulator";
import { failureMessages, providerFailure, timeoutFailure, type CallPhase } from "./openai-failures";
import { assistantToolCallMessage, conversationMessages, functionTools, parseToolArguments, toolResultMessage } from "./openai-messages";

export interface OpenAiCompatibleOptions {
  /** The endpoint's base, up to and including `/v1` (e.g. `https://api.openai.com/v1`, `http://localhost:11434/v1`). */
  baseUrl: string;
  /** Sent as the bearer token; local servers that need none get a placeholder, since the client requires one. */
  apiKey: string;
  models: readonly string[];
  /** The longest wait for the provider's next sign of life: the answer's start, then each chunk. 60 s unless set. */
  timeoutMs?: number;
  /** Rounds of tool calls a reply may take before it gives up. 8 unless set. */
  maxToolRounds?: number;
}

const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_TOOL_ROUNDS = 8;
const KEYLESS_PLACEHOLDER = "no-key";
const silentLogger = { error() {}, warn() {}, info() {}, debug() {} };

/**
 * A provider for any endpoint that speaks OpenAI's chat completions with tool calling (OpenAI,
 * OpenRouter, Ollama, vLLM, LM Studio): the conversation and tools go out, the answer streams back
 * through `onText`, and the tools the model asks for run through `callTool` until it answers.
 */
export function createOpenAiCompatibleProvider(options: OpenAiCompatibleOptions): AssistantProvider {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxToolRounds = options.maxToolRounds ?? DEFAULT_MAX_TOOL_ROUNDS;
  const client = new OpenAI({
    baseURL: options.baseUrl,
    apiKey: options.apiKey || KEYLESS_PLACEHOLDER,
    // Explicit nulls, so OPENAI_* variables meant for something else never reach a third-party endpoint.
    adminAPIKey: null,
    organization: null,
    project: null,
    webhookSecret: null,
    // One retry for a transient failure; the reply's own deadline bounds the rest.
    maxRetries: 1,
    timeout: timeoutMs,
    // The client logs request details at some levels; nothing of it may reach our logs.
    logLevel: "off",
    logger: silentLogger,
  });

  return {
    models: [...options.models],
    reply: (model, io) => new OpenAiReply(client, model, io, timeoutMs).run(maxToolRounds),
  };
}

/** One reply: model calls alternating with the tool calls they ask for. */
class OpenAiReply {
  private readonly messages: ChatCompletionMessageParam[];
  private readonly tools: ChatCompletionFunctionTool[];
  private content = "";

  constructor(
    private readonly client: OpenAI,
    private readonly model: string,
    private readonly io: ReplyIo,
    private readonly timeoutMs: number,
  ) {
    this.messages = conversationMessages(io.family, io.history);
    this.tools = functionTools(io.tools);
  }

  async run(maxToolRounds: number): Promise<{ content: string }> {
    for (let round = 0; ; round++) {
      const completion = await this.complete();
      if (completion.toolCalls.length === 0) return { content: this.content };
      if (round >= maxToolRounds) throw new AssistantFailure(failureMessages.tooManyRounds(maxToolRounds));
      await this.runToolCalls(completion, round);
    }
  }

  /** Runs the calls one after another (their records keep the model's order) and adds their results. */
  private async runToolCalls(completion: AccumulatedCompletion, round: number): Promise<void> {
    // A provider that leaves out ids still needs one to pair each result with its call.
    const calls = completion.toolCalls.map((call, index) => ({ ...call, id: call.id || `call_${round}_${index}` }));
    this.messages.push(assistantToolCallMessage(completion.text, calls));
    for (const call of calls) {
      const parsed = parseToolArguments(call);
      const result = await this.io.callTool(call.name, parsed.ok ? parsed.args : new UnreadableArguments(call.arguments, parsed.result));
      this.messages.push(toolResultMessage(call.id, result));
    }
  }

  /** One streamed model call, its text handed out as it comes. */
  private async complete(): Promise<AccumulatedCompletion> {
    const { io } = this;
    io.signal.throwIfAborted();
    const deadline = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      deadline.abort();
    }, this.timeoutMs);
    // Caller aborts surface as the caller's reason, our deadline as a timeout, the rest as safe failures;
    // errors of onText are not the provider's and pass through as they are.
    const guarded = async <T>(phase: CallPhase, work: () => T | Promise<T>): Promise<T> => {
      try {
        return await work();
      } catch (error) {
        if (io.signal.aborted) throw io.signal.reason;
        throw timedOut ? timeoutFailure() : providerFailure(error, phase);
      }
    };
    let finished = false;
    try {
      const request = this.request();
      const signal = AbortSignal.any([io.signal, deadline.signal]);
      const stream = await guarded("request", () => this.client.chat.completions.create(request, { signal }));
      const chunks = stream[Symbol.asyncIterator]();
      const accumulator = new CompletionAccumulator();
      let separated = this.content === "";
      for (;;) {
        const next = await guarded("stream", () => chunks.next());
        if (next.done) break;
        timer.refresh();
        const text = await guarded("stream", () => accumulator.add(next.value));
        if (text === "") continue;
        // Text before a tool round and the answer after it would otherwise run together.
        if (!separated && !/\s$/.test(this.content)) this.emit("\n\n");
        separated = true;
        this.emit(text);
      }
      // An aborted stream ends quietly, before its finish_reason: result() then throws, which
      // guarded turns into the caller's reason or our timeout.
      const completion = await guarded("stream", () => accumulator.result());
      finished = true;
      return completion;
    } finally {
      clearTimeout(timer);
      // Stops the request when we leave early (a failure, or onText threw).
      if (!finished) deadline.abort();
    }
  }

  private request(): ChatCompletionCreateParamsStreaming {
    // Some compatible servers reject an empty tools list.
    return { model: this.model, messages: this.messages, stream: true, ...(this.tools.length > 0 ? { tools: this.tools } : {}) };
  }

  private emit(delta: string): void {
    this.content += delta;
    this.io.onText(delta);
  }
}
