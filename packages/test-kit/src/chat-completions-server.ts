import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";

/**
 * A local stand-in for an OpenAI-compatible chat-completions endpoint (OpenAI, OpenRouter, Ollama,
 * vLLM, LM Studio), for tests and benchmarks of anything that talks to one. It speaks the wire
 * format of OpenAI's `chat.completion` and `chat.completion.chunk` objects and answers each request
 * from a script the test supplies.
 */

/** One part of a scripted answer; an answer plays its parts in order. */
export type CompletionTurn =
  /** Streamed as one delta per word (or `pieces` deltas); the answer finishes with "stop" unless tool calls follow. */
  | { kind: "text"; text: string; pieces?: number }
  /** Streamed as OpenAI does: id, type and name in a call's first delta, its arguments split over `pieces` (3) more; finishes with "tool_calls". */
  | { kind: "tool_calls"; calls: readonly ScriptedToolCall[] }
  /** An HTTP error with OpenAI's error body; only before anything else was sent (a delay may come first). */
  | { kind: "error"; status: number; message?: string; code?: string; headers?: Record<string, string> }
  /** A pause (before the answer starts, or between its parts). */
  | { kind: "delay"; ms: number }
  /** An SSE event whose data is not a chunk (`data` as given, invalid JSON by default), then the stream ends. */
  | { kind: "malformed"; data?: string }
  /** The connection is cut where this part stands (before the headers when nothing came before): no finish_reason, no `[DONE]`. */
  | { kind: "hang_up" };

export interface ScriptedToolCall {
  /** `call_<n>` unless given. */
  id?: string;
  name: string;
  /** A string is sent verbatim (so invalid JSON can be scripted); an object as its JSON. */
  arguments: string | Record<string, unknown>;
  /** How many deltas the arguments are split over; 3 unless given. */
  pieces?: number;
}

/** Builders for the parts of a scripted answer. */
export const completionTurn = {
  text: (text: string, pieces?: number): CompletionTurn => ({ kind: "text", text, ...(pieces === undefined ? {} : { pieces }) }),
  toolCalls: (...calls: ScriptedToolCall[]): CompletionTurn => ({ kind: "tool_calls", calls }),
  error: (status: number, message?: string): CompletionTurn => ({ kind: "error", status, ...(message === undefined ? {} : { message }) }),
  delay: (ms: number): CompletionTurn => ({ kind: "delay", ms }),
  malformed: (data?: string): CompletionTurn => ({ kind: "malformed", ...(data === undefined ? {} : { data }) }),
  hangUp: (): CompletionTurn => ({ kind: "hang_up" }),
};

/** A request the server received, as sent. */
export interface RecordedCompletionRequest {
  path: string;
  /** The Authorization header as received. */
  authorization: string | undefined;
  /** The parsed JSON body (model, messages, tools, stream, ...). */
  body: CompletionRequestBody;
  /** `performance.now()` when the request's body had arrived, and when its answer was fully written (or cut). */
  receivedAt: number;
  answeredAt: number | undefined;
}

/** The fields of a chat-completions request the server reads; everything else is kept as sent. */
export interface CompletionRequestBody {
  model: string;
  messages: Array<Record<string, unknown>>;
  stream?: boolean;
  stream_options?: { include_usage?: boolean } | null;
  tools?: Array<Record<string, unknown>>;
  [field: string]: unknown;
}

/** Answers a request: the parts of its answer (one part or several). */
export type CompletionScript = (body: CompletionRequestBody, request: RecordedCompletionRequest) => CompletionTurn | readonly CompletionTurn[];

export interface ChatCompletionsServerOptions {
  /** The bearer key requests must carry; other keys get OpenAI's 401 (echoing the key sent, as a worst case for leak tests). */
  apiKey: string;
  script: CompletionScript;
}

export interface TestChatCompletionsServer {
  /** `http://127.0.0.1:<port>/v1`: the base URL an OpenAI client is given. */
  baseUrl: string;
  /** Every chat-completions request received with a readable body (those refused for their key too), oldest first. */
  readonly requests: readonly RecordedCompletionRequest[];
  /** Replaces the script (for servers shared by several tests). */
  setScript(script: CompletionScript): void;
  stop(): Promise<void>;
}

/** A script answering the n-th request with the n-th answer; requests beyond them get HTTP 500. */
export function answersInOrder(...answers: ReadonlyArray<CompletionTurn | readonly CompletionTurn[]>): CompletionScript {
  let next = 0;
  return () => answers[next++] ?? completionTurn.error(500, "The script has no answer left for this request");
}

/** Starts the server on a free loopback port. */
export async function startChatCompletionsServer(options: ChatCompletionsServerOptions): Promise<TestChatCompletionsServer> {
  const requests: RecordedCompletionRequest[] = [];
  let script = options.script;
  let completionCount = 0;

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendError(res, 500, `Test server failure: ${String(error)}`, "server_error");
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
    if (path !== "/v1/chat/completions" && path !== "/chat/completions") return sendError(res, 404, `Unknown path ${path}`, "not_found");
    if (req.method !== "POST") return sendError(res, 405, `Method ${req.method} not allowed`, "method_not_allowed");
    const body = parseRequestBody(await readBody(req));
    if (!body) return sendError(res, 400, "The body must be JSON with a string `model` and an array `messages`.", "invalid_request_body");
    const authorization = req.headers.authorization;
    const recorded: RecordedCompletionRequest = { path, authorization, body, receivedAt: performance.now(), answeredAt: undefined };
    requests.push(recorded);
    res.once("close", () => (recorded.answeredAt ??= performance.now()));
    if (authorization !== `Bearer ${options.apiKey}`) {
      const sent = authorization?.replace(/^Bearer\s+/i, "") ?? "";
      return sendError(
        res,
        401,
        `Incorrect API key provided: ${sent}. You can find your API key at https://platform.openai.com/account/api-keys.`,
        "invalid_api_key",
      );
    }

    const turns = script(body, recorded);
    const answer = new AnswerWriter(res, body, `chatcmpl-test${++completionCount}`);
    await answer.play(Array.isArray(turns) ? (turns as readonly CompletionTurn[]) : [turns as CompletionTurn]);
    recorded.answeredAt ??= performance.now();
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const port = (server.address() as AddressInfo).port;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    setScript(replacement) {
      script = replacement;
    },
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** Writes one answer, streamed (SSE) or whole, from its scripted parts. */
class AnswerWriter {
  private readonly created = Math.floor(Date.now() / 1000);
  private readonly streaming: boolean;
  private readonly includeUsage: boolean;
  private readonly content: string[] = [];
  private readonly toolCalls: Array<{ id: string; name: string; arguments: string }> = [];
  private started = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly body: CompletionRequestBody,
    private readonly id: string,
  ) {
    this.streaming = body.stream === true;
    this.includeUsage = body.stream_options?.include_usage === true;
  }

  async play(turns: readonly CompletionTurn[]): Promise<void> {
    for (const turn of turns) {
      if (this.res.destroyed) return;
      switch (turn.kind) {
        case "delay":
          await pause(turn.ms, this.res);
          break;
        case "error":
          if (this.started) throw new Error("An error turn must come before the answer starts");
          return sendError(this.res, turn.status, turn.message ?? `Scripted failure (HTTP ${turn.status})`, turn.code ?? "scripted_error", turn.headers);
        case "text":
          this.writeText(turn.text, turn.pieces);
          break;
        case "tool_calls":
          this.writeToolCalls(turn.calls);
          break;
        case "malformed":
          this.startStream();
          this.res.end(`data: ${turn.data ?? `{"id":"${this.id}","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"cut`}\n\n`);
          return;
        case "hang_up":
          // What was written reaches the client first, so the cut falls mid-answer rather than before it.
          if (this.started) await new Promise<void>((resolve) => this.res.write(": cut\n\n", () => resolve()));
          this.res.destroy();
          return;
      }
    }
    this.finish();
  }

  private writeText(text: string, pieces: number | undefined): void {
    this.content.push(text);
    if (!this.streaming) return;
    if (!this.started) this.startStream({ role: "assistant", content: "", refusal: null });
    for (const piece of splitText(text, pieces)) this.writeChunk({ content: piece });
  }

  private writeToolCalls(calls: readonly ScriptedToolCall[]): void {
    for (const call of calls) {
      const index = this.toolCalls.length;
      const args = typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments);
      const id = call.id ?? `call_${index}`;
      this.toolCalls.push({ id, name: call.name, arguments: args });
      if (!this.streaming) continue;
      const opening = { index, id, type: "function", function: { name: call.name, arguments: "" } };
      if (this.started) this.writeChunk({ tool_calls: [opening] });
      else this.startStream({ role: "assistant", content: null, tool_calls: [opening], refusal: null });
      for (const piece of splitEvenly(args, call.pieces ?? 3)) this.writeChunk({ tool_calls: [{ index, function: { arguments: piece } }] });
    }
  }

  private finish(): void {
    const finishReason = this.toolCalls.length > 0 ? "tool_calls" : "stop";
    if (!this.streaming) return this.sendWhole(finishReason);
    if (!this.started) this.startStream({ role: "assistant", content: "", refusal: null });
    this.writeChunk({}, finishReason);
    if (this.includeUsage) this.writeEvent({ ...this.chunkEnvelope(), choices: [], usage: this.usage() });
    this.res.end("data: [DONE]\n\n");
  }

  private startStream(firstDelta?: Record<string, unknown>): void {
    if (this.started) return;
    this.started = true;
    this.res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", connection: "keep-alive" });
    if (firstDelta) this.writeChunk(firstDelta);
  }

  private writeChunk(delta: Record<string, unknown>, finishReason: string | null = null): void {
    this.writeEvent({ ...this.chunkEnvelope(), choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] });
  }

  private chunkEnvelope(): Record<string, unknown> {
    return {
      id: this.id,
      object: "chat.completion.chunk",
      created: this.created,
      model: this.body.model,
      service_tier: "default",
      system_fingerprint: "fp_hearth_test",
      ...(this.includeUsage ? { usage: null } : {}),
    };
  }

  private writeEvent(data: unknown): void {
    this.res.write(`data: ${JSON.stringify(data)}\n\n`);
  }

  private sendWhole(finishReason: string): void {
    const content = this.content.join("");
    const message: Record<string, unknown> = {
      role: "assistant",
      content: content === "" && this.toolCalls.length > 0 ? null : content,
      refusal: null,
      annotations: [],
    };
    if (this.toolCalls.length > 0) {
      message.tool_calls = this.toolCalls.map((call) => ({ id: call.id, type: "function", function: { name: call.name, arguments: call.arguments } }));
    }
    const completion = {
      id: this.id,
      object: "chat.completion",
      created: this.created,
      model: this.body.model,
      choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason }],
      usage: this.usage(),
      service_tier: "default",
      system_fingerprint: "fp_hearth_test",
    };
    this.res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(completion));
  }

  /** Token counts are estimates (a token per 4 characters): enough for the shape. */
  private usage(): Record<string, unknown> {
    const promptTokens = Math.ceil(JSON.stringify(this.body.messages).length / 4);
    const completionTokens = Math.ceil((this.content.join("").length + JSON.stringify(this.toolCalls).length) / 4);
    return {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
      prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
    };
  }
}

/** OpenAI's error body: `{ error: { message, type, param, code } }`. */
function sendError(res: ServerResponse, status: number, message: string, code: string, headers: Record<string, string> = {}): void {
  const type = status === 429 ? "rate_limit_error" : status >= 500 ? "server_error" : "invalid_request_error";
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify({ error: { message, type, param: null, code } }));
}

function parseRequestBody(raw: string): CompletionRequestBody | undefined {
  try {
    const body: unknown = JSON.parse(raw);
    if (typeof body !== "object" || body === null) return undefined;
    const { model, messages } = body as Record<string, unknown>;
    return typeof model === "string" && Array.isArray(messages) ? (body as CompletionRequestBody) : undefined;
  } catch {
    return undefined;
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts).toString("utf8");
}

/** Waits `ms`, or less when the client went away (so aborted requests do not keep timers). */
function pause(ms: number, res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    res.once("close", done);
    function done() {
      clearTimeout(timer);
      res.off("close", done);
      resolve();
    }
  });
}

/** One piece per word (with its trailing space), or `pieces` even pieces. */
function splitText(text: string, pieces: number | undefined): string[] {
  if (text === "") return [];
  if (pieces !== undefined) return splitEvenly(text, pieces);
  return text.match(/\s*\S+\s*/g) ?? [text];
}

function splitEvenly(text: string, pieces: number): string[] {
  if (text === "") return [];
  const size = Math.max(1, Math.ceil(text.length / Math.max(1, pieces)));
  const result: string[] = [];
  for (let start = 0; start < text.length; start += size) result.push(text.slice(start, start + size));
  return result;
}
