import { performance } from "node:perf_hooks";
import OpenAI from "openai";
import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  answersInOrder,
  completionTurn as turn,
  freePort,
  startChatCompletionsServer,
  type CompletionRequestBody,
  type TestChatCompletionsServer,
} from "@hearth/test-kit";
import { AssistantFailure, UnreadableArguments, type FamilyFacts, type ReplyIo, type ToolResult, type ToolSpec } from "../src/assistant/assistant-types";
import { createOpenAiCompatibleProvider, type OpenAiCompatibleOptions } from "../src/assistant/providers/openai-compatible";

const KEY = "sk-test-4f1c9d2e7b";
const MODEL = "gpt-test";
const FAMILY: FamilyFacts = { currency: "EUR", locale: "de-DE", timezone: "Europe/Berlin", today: "2025-03-14" };
const TOOLS: ToolSpec[] = [
  {
    name: "spending_by_category",
    description: "Spending per category over a period",
    parameters: { type: "object", properties: { period: { type: "string" } }, required: ["period"], additionalProperties: false },
  },
  { name: "list_accounts", description: "The family's accounts", parameters: { type: "object", properties: {} } },
];
const SPENDING: ToolResult = { period: "2025-02", categories: [{ name: "Groceries", amount_cents: 42_10, amount: "42,10 €" }] };

let server: TestChatCompletionsServer;

beforeEach(async () => {
  server = await startChatCompletionsServer({ apiKey: KEY, script: () => turn.error(500, "no script set") });
});
afterEach(async () => {
  await server.stop();
});

function provider(options: Partial<OpenAiCompatibleOptions> = {}) {
  return createOpenAiCompatibleProvider({ baseUrl: server.baseUrl, apiKey: KEY, models: [MODEL], ...options });
}

/** A ReplyIo whose tools answer from `answer` and record their calls: this tests the provider, not the tools. */
function replyIo(options: { answer?: (name: string, args: unknown) => ToolResult; signal?: AbortSignal; onText?: (delta: string) => void } = {}) {
  const deltas: string[] = [];
  const toolCalls: Array<{ name: string; args: unknown }> = [];
  const io: ReplyIo = {
    history: [
      { role: "user", content: "Hi" },
      { role: "assistant", content: "Hello! How can I help?" },
      { role: "user", content: "What did we spend on groceries last month?" },
    ],
    tools: TOOLS,
    family: FAMILY,
    signal: options.signal ?? new AbortController().signal,
    async callTool(name, args) {
      toolCalls.push({ name, args });
      // As the reply runner does: an unreadable call is recorded and answered with its own error.
      if (args instanceof UnreadableArguments) return args.result;
      return options.answer ? options.answer(name, args) : SPENDING;
    },
    onText(delta) {
      deltas.push(delta);
      options.onText?.(delta);
    },
  };
  return { io, deltas, toolCalls };
}

function lastMessage(body: CompletionRequestBody): Record<string, unknown> | undefined {
  return body.messages.at(-1);
}

/** The failure a reply rejected with, checked to be a safe AssistantFailure that does not quote the key or the body. */
async function failureOf(reply: Promise<unknown>, key = KEY): Promise<AssistantFailure> {
  const error = await reply.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AssistantFailure);
  const failure = error as AssistantFailure;
  const shown = `${failure.safeMessage} ${failure.message} ${String(failure.cause)} ${(failure.cause as Error | undefined)?.message ?? ""}`;
  expect(shown).not.toContain(key);
  expect(shown).not.toMatch(/Incorrect API key|Scripted failure|secret detail|\n\s+at /);
  expect(failure.message).toBe(failure.safeMessage);
  return failure;
}

describe("OpenAI-compatible provider: answers", () => {
  it("streams a plain answer: the deltas concatenate to the content, and the model is sent the prompt, history and tools", async () => {
    server.setScript(() => turn.text("Last month you spent 42,10 € on groceries."));
    const { io, deltas, toolCalls } = replyIo();

    const { content } = await provider().reply(MODEL, io);

    expect(content).toBe("Last month you spent 42,10 € on groceries.");
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join("")).toBe(content);
    expect(toolCalls).toEqual([]);

    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request!.path).toBe("/v1/chat/completions");
    expect(request!.authorization).toBe(`Bearer ${KEY}`);
    const body = request!.body;
    expect(body).toMatchObject({ model: MODEL, stream: true });
    const [system, ...history] = body.messages;
    expect(system).toMatchObject({ role: "system" });
    expect(system!.content).toEqual(expect.stringContaining("2025-03-14"));
    expect(system!.content).toEqual(expect.stringContaining("EUR"));
    expect(system!.content).toEqual(expect.stringContaining("de-DE"));
    expect(system!.content).toEqual(expect.stringContaining("Europe/Berlin"));
    expect(history).toEqual(io.history.map((entry) => ({ role: entry.role, content: entry.content })));
    expect(body.tools).toEqual(
      TOOLS.map((tool) => ({ type: "function", function: { name: tool.name, description: tool.description, parameters: tool.parameters } })),
    );
  });

  it("leaves tools out of the request when the credential may use none", async () => {
    server.setScript(() => turn.text("Hello."));
    const { io } = replyIo();
    await provider().reply(MODEL, { ...io, tools: [] });
    expect(server.requests[0]!.body).not.toHaveProperty("tools");
  });

  it("runs one tool round: the call goes through callTool and its result back to the model with the call's id", async () => {
    server.setScript(
      answersInOrder(
        turn.toolCalls({ id: "call_spend1", name: "spending_by_category", arguments: { period: "last_month" } }),
        turn.text("You spent 42,10 € on groceries."),
      ),
    );
    const { io, deltas, toolCalls } = replyIo();

    const { content } = await provider().reply(MODEL, io);

    expect(content).toBe("You spent 42,10 € on groceries.");
    expect(deltas.join("")).toBe(content);
    expect(toolCalls).toEqual([{ name: "spending_by_category", args: { period: "last_month" } }]);
    expect(server.requests).toHaveLength(2);
    const second = server.requests[1]!.body.messages;
    expect(second.slice(-2)).toEqual([
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "call_spend1", type: "function", function: { name: "spending_by_category", arguments: '{"period":"last_month"}' } }],
      },
      { role: "tool", tool_call_id: "call_spend1", content: JSON.stringify(SPENDING) },
    ]);
  });

  it("runs two tool rounds, with two calls in the second, pairing every result with its call", async () => {
    server.setScript(
      answersInOrder(
        turn.toolCalls({ id: "call_a", name: "list_accounts", arguments: {} }),
        [
          turn.text("Checking both periods."),
          turn.toolCalls(
            { id: "call_b", name: "spending_by_category", arguments: { period: "2025-01" } },
            { id: "call_c", name: "spending_by_category", arguments: { period: "2025-02" } },
          ),
        ],
        turn.text("January: 10 €, February: 42,10 €."),
      ),
    );
    const { io, deltas, toolCalls } = replyIo({ answer: (name, args) => ({ name, args: args as Record<string, unknown> }) });

    const { content } = await provider().reply(MODEL, io);

    expect(toolCalls).toEqual([
      { name: "list_accounts", args: {} },
      { name: "spending_by_category", args: { period: "2025-01" } },
      { name: "spending_by_category", args: { period: "2025-02" } },
    ]);
    // Text before a tool round and the final answer are kept apart.
    expect(content).toBe("Checking both periods.\n\nJanuary: 10 €, February: 42,10 €.");
    expect(deltas.join("")).toBe(content);
    expect(server.requests).toHaveLength(3);
    const third = server.requests[2]!.body.messages;
    expect(third.filter((message) => message.role === "tool")).toEqual([
      { role: "tool", tool_call_id: "call_a", content: JSON.stringify({ name: "list_accounts", args: {} }) },
      { role: "tool", tool_call_id: "call_b", content: JSON.stringify({ name: "spending_by_category", args: { period: "2025-01" } }) },
      { role: "tool", tool_call_id: "call_c", content: JSON.stringify({ name: "spending_by_category", args: { period: "2025-02" } }) },
    ]);
    expect(third.at(-3)).toMatchObject({ role: "assistant", content: "Checking both periods.", tool_calls: [{ id: "call_b" }, { id: "call_c" }] });
  });

  it("puts arguments split over many chunks back together (including multi-byte text)", async () => {
    const args = { period: "2025-02", note: "Café ☕ — «Lebensmittel»", nested: { ids: [1, 2, 3] } };
    server.setScript(answersInOrder(turn.toolCalls({ id: "call_x", name: "spending_by_category", arguments: args, pieces: 40 }), turn.text("Done.")));
    const { io, toolCalls } = replyIo();

    await provider().reply(MODEL, io);

    expect(toolCalls).toEqual([{ name: "spending_by_category", args }]);
  });

  it("hands arguments that are not JSON to callTool as unreadable (recorded, no tool run) and sends invalid_arguments back to the model", async () => {
    server.setScript(
      answersInOrder(
        turn.toolCalls({ id: "call_bad", name: "spending_by_category", arguments: '{"period": "last_mo' }),
        turn.toolCalls({ id: "call_good", name: "spending_by_category", arguments: { period: "last_month" } }),
        turn.text("42,10 €."),
      ),
    );
    const { io, toolCalls } = replyIo();

    const { content } = await provider().reply(MODEL, io);

    expect(content).toBe("42,10 €.");
    expect(toolCalls).toEqual([
      { name: "spending_by_category", args: new UnreadableArguments('{"period": "last_mo', expect.objectContaining({ error: "invalid_arguments" })) },
      { name: "spending_by_category", args: { period: "last_month" } },
    ]);
    const toolMessage = lastMessage(server.requests[1]!.body)!;
    expect(toolMessage).toMatchObject({ role: "tool", tool_call_id: "call_bad" });
    expect(JSON.parse(toolMessage.content as string)).toEqual({ error: "invalid_arguments", hint: expect.stringContaining("JSON") });
  });

  it("sends a tool's { error, hint } (an unknown tool) back to the model", async () => {
    const unknown = { error: "unknown_tool", hint: "There is no tool named delete_everything; use one of the listed tools." };
    server.setScript(answersInOrder(turn.toolCalls({ id: "call_u", name: "delete_everything", arguments: {} }), turn.text("I can't do that.")));
    const { io, toolCalls } = replyIo({ answer: (name) => (TOOLS.some((tool) => tool.name === name) ? SPENDING : unknown) });

    const { content } = await provider().reply(MODEL, io);

    expect(content).toBe("I can't do that.");
    expect(toolCalls).toEqual([{ name: "delete_everything", args: {} }]);
    expect(lastMessage(server.requests[1]!.body)).toEqual({ role: "tool", tool_call_id: "call_u", content: JSON.stringify(unknown) });
  });

  it("fails after maxToolRounds rounds of tool calls without an answer", async () => {
    server.setScript(() => turn.toolCalls({ name: "list_accounts", arguments: {} }));
    const { io, toolCalls } = replyIo();

    const failure = await failureOf(provider({ maxToolRounds: 2 }).reply(MODEL, io));

    expect(failure.safeMessage).toBe("The assistant looked things up 2 times without reaching an answer");
    expect(toolCalls).toHaveLength(2);
    expect(server.requests).toHaveLength(3);
  });
});

describe("OpenAI-compatible provider: failures", () => {
  it("turns HTTP 401 into a safe failure that quotes neither the key nor the provider's body, and logs nothing", async () => {
    const wrongKey = "sk-wrong-9a8b7c6d5e";
    const logged = (["log", "info", "warn", "error", "debug"] as const).map((method) => vi.spyOn(console, method).mockImplementation(() => undefined));
    try {
      const failure = await failureOf(provider({ apiKey: wrongKey }).reply(MODEL, replyIo().io), wrongKey);
      expect(failure.safeMessage).toBe("The assistant's provider refused the request (HTTP 401)");
      // The server's 401 body quotes the key it got (a worst case): it must go nowhere.
      expect(logged.flatMap((spy) => spy.mock.calls).join(" ")).not.toContain(wrongKey);
      expect(server.requests).toHaveLength(1);
    } finally {
      for (const spy of logged) spy.mockRestore();
    }
  });

  it("turns HTTP 500 into a safe failure after at most one retry", async () => {
    server.setScript(() => turn.error(500, `secret detail from the provider, key ${KEY}`));
    const failure = await failureOf(provider().reply(MODEL, replyIo().io));
    expect(failure.safeMessage).toBe("The assistant's provider failed (HTTP 500)");
    expect(server.requests).toHaveLength(2);
  });

  it("turns a refused connection into 'could not be reached'", async () => {
    const closedPort = await freePort();
    const unreachable = createOpenAiCompatibleProvider({ baseUrl: `http://127.0.0.1:${closedPort}/v1`, apiKey: KEY, models: [MODEL] });
    const failure = await failureOf(unreachable.reply(MODEL, replyIo().io));
    expect(failure.safeMessage).toBe("The assistant's provider could not be reached");
    expect(String((failure.cause as Error).message)).toContain("ECONNREFUSED");
  });

  it("times out when the answer does not start in time", async () => {
    server.setScript(() => [turn.delay(5_000), turn.text("Too late.")]);
    const started = performance.now();
    const failure = await failureOf(provider({ timeoutMs: 200 }).reply(MODEL, replyIo().io));
    expect(failure.safeMessage).toBe("The assistant's provider did not answer in time");
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it("times out when a started answer stalls, keeping what was streamed", async () => {
    server.setScript(() => [turn.text("The total is"), turn.delay(5_000), turn.text(" 42 €.")]);
    const { io, deltas } = replyIo();
    const started = performance.now();
    const failure = await failureOf(provider({ timeoutMs: 200 }).reply(MODEL, io));
    expect(failure.safeMessage).toBe("The assistant's provider did not answer in time");
    expect(deltas.join("")).toBe("The total is");
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it("stops at once when the signal aborts mid-stream, rejecting with the signal's reason and closing the request", async () => {
    server.setScript(() => [turn.text("Let me see"), turn.delay(10_000), turn.text(" more.")]);
    const controller = new AbortController();
    const reason = new Error("chat deleted");
    const { io } = replyIo({ signal: controller.signal, onText: () => controller.abort(reason) });

    const started = performance.now();
    await expect(provider().reply(MODEL, io)).rejects.toBe(reason);
    expect(performance.now() - started).toBeLessThan(1_000);
    await vi.waitFor(() => expect(server.requests[0]!.answeredAt).toBeDefined(), { timeout: 1_000 });
    expect(server.requests).toHaveLength(1);
  });

  it("stops when the signal aborts before the answer starts", async () => {
    server.setScript(() => [turn.delay(10_000), turn.text("Never.")]);
    const controller = new AbortController();
    const reason = new Error("reply timed out");
    setTimeout(() => controller.abort(reason), 100);
    const started = performance.now();
    await expect(provider().reply(MODEL, replyIo({ signal: controller.signal }).io)).rejects.toBe(reason);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(server.requests).toHaveLength(1);
  });

  it("does not call the model when the signal is already aborted", async () => {
    const controller = new AbortController();
    controller.abort(new Error("gone"));
    await expect(provider().reply(MODEL, replyIo({ signal: controller.signal }).io)).rejects.toThrow("gone");
    expect(server.requests).toHaveLength(0);
  });

  it("refuses tool calls whose arguments run past a megabyte, or too many calls, without calling any tool", async () => {
    server.setScript(() => [turn.toolCalls({ name: "spending_by_category", arguments: "x".repeat(1_100_000), pieces: 20 })]);
    const huge = replyIo();
    expect((await failureOf(provider().reply(MODEL, huge.io))).safeMessage).toBe("The assistant's provider sent an answer that could not be read");
    const many = Array.from({ length: 130 }, (_, i) => ({ id: `call_${i}`, name: "spending_by_category", arguments: {} }));
    server.setScript(() => [turn.toolCalls(...many)]);
    const crowded = replyIo();
    expect((await failureOf(provider().reply(MODEL, crowded.io))).safeMessage).toBe("The assistant's provider sent an answer that could not be read");
    expect([...huge.toolCalls, ...crowded.toolCalls]).toEqual([]);
  });

  it("turns a chunk that is not JSON into 'could not be read'", async () => {
    server.setScript(() => [turn.text("Hel"), turn.malformed()]);
    const failure = await failureOf(provider().reply(MODEL, replyIo().io));
    expect(failure.safeMessage).toBe("The assistant's provider sent an answer that could not be read");
  });

  it("turns JSON that is no chat.completion.chunk into 'could not be read'", async () => {
    server.setScript(() => [turn.text("Hel"), turn.malformed('{"choices":"nope"}')]);
    const failure = await failureOf(provider().reply(MODEL, replyIo().io));
    expect(failure.safeMessage).toBe("The assistant's provider sent an answer that could not be read");
  });

  it("turns a stream that ends without finishing into 'could not be read'", async () => {
    server.setScript(() => [turn.text("Hel"), turn.malformed('{"id":"x","object":"chat.completion.chunk","choices":[]}')]);
    const failure = await failureOf(provider().reply(MODEL, replyIo().io));
    expect(failure.safeMessage).toBe("The assistant's provider sent an answer that could not be read");
  });

  it("turns an error event inside the stream into a safe failure", async () => {
    server.setScript(() => [turn.text("Hel"), turn.malformed(JSON.stringify({ error: { message: `secret detail ${KEY}`, type: "server_error" } }))]);
    const failure = await failureOf(provider().reply(MODEL, replyIo().io));
    expect(failure.safeMessage).toBe("The assistant's provider reported an error while answering");
  });

  it("turns a connection cut mid-answer into a safe failure", async () => {
    server.setScript(() => [turn.text("The total"), turn.hangUp()]);
    const failure = await failureOf(provider().reply(MODEL, replyIo().io));
    expect(failure.safeMessage).toBe("The assistant's provider broke off its answer");
  });
});

describe("the chat-completions test server", () => {
  it("answers non-streaming requests with a whole chat.completion the official client reads", async () => {
    server.setScript(answersInOrder([turn.text("Hello "), turn.text("there.")], turn.toolCalls({ id: "call_1", name: "list_accounts", arguments: {} })));
    const client = new OpenAI({ baseURL: server.baseUrl, apiKey: KEY, maxRetries: 0 });

    const text = await client.chat.completions.create({ model: MODEL, messages: [{ role: "user", content: "Hi" }] });
    expect(text).toMatchObject({
      object: "chat.completion",
      model: MODEL,
      choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: "Hello there." } }],
    });
    expect(text.usage?.total_tokens).toBeGreaterThan(0);

    const tools = await client.chat.completions.create({ model: MODEL, messages: [{ role: "user", content: "Hi" }] });
    expect(tools.choices[0]).toMatchObject({
      finish_reason: "tool_calls",
      message: { content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "list_accounts", arguments: "{}" } }] },
    });
  });

  it("streams chunks in OpenAI's shape, with a usage chunk when asked", async () => {
    server.setScript(() => [turn.text("Hi there."), turn.toolCalls({ id: "call_9", name: "list_accounts", arguments: { a: 1 } })]);
    const client = new OpenAI({ baseURL: server.baseUrl, apiKey: KEY, maxRetries: 0 });
    const stream = await client.chat.completions.create({
      model: MODEL,
      messages: [{ role: "user", content: "Hi" }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks: ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);

    expect(chunks.every((chunk) => chunk.object === "chat.completion.chunk" && chunk.id === chunks[0]!.id && chunk.model === MODEL)).toBe(true);
    expect(chunks[0]!.choices[0]!.delta).toMatchObject({ role: "assistant", content: "" });
    expect(chunks.at(-2)!.choices[0]).toMatchObject({ delta: {}, finish_reason: "tool_calls" });
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { total_tokens: expect.any(Number) } });
    const opening = chunks.find((chunk) => chunk.choices[0]?.delta.tool_calls)!.choices[0]!.delta.tool_calls![0];
    expect(opening).toEqual({ index: 0, id: "call_9", type: "function", function: { name: "list_accounts", arguments: "" } });
  });
});

describe("OpenAI-compatible provider: overhead of a tool round trip", () => {
  it("adds well under 20 ms per tool round trip against an instant server", async () => {
    // Answers with a tool call until a tool result came back, then with text.
    server.setScript((body) =>
      lastMessage(body)?.role === "tool"
        ? turn.text("Groceries: 42,10 €.")
        : turn.toolCalls({ name: "spending_by_category", arguments: { period: "last_month" } }),
    );
    const assistant = provider();
    for (let warmUp = 0; warmUp < 5; warmUp++) await assistant.reply(MODEL, replyIo().io);

    const runs = 40;
    const gaps: number[] = [];
    const withTool: number[] = [];
    for (let run = 0; run < runs; run++) {
      const first = server.requests.length;
      const started = performance.now();
      await assistant.reply(MODEL, replyIo().io);
      withTool.push(performance.now() - started);
      const [call, answer] = server.requests.slice(first);
      // From the model's tool-call answer being written to the next request arriving: the provider's own work.
      gaps.push(answer!.receivedAt - call!.answeredAt!);
    }
    server.setScript(() => turn.text("Groceries: 42,10 €."));
    const plain: number[] = [];
    for (let run = 0; run < runs; run++) {
      const started = performance.now();
      await assistant.reply(MODEL, replyIo().io);
      plain.push(performance.now() - started);
    }

    const gap = median(gaps);
    const roundTrip = median(withTool) - median(plain);
    console.log(
      `tool round trip inside the provider: median ${gap.toFixed(2)} ms, p90 ${percentile(gaps, 0.9).toFixed(2)} ms (answer written -> next request received); ` +
        `reply with one tool round ${median(withTool).toFixed(2)} ms vs plain reply ${median(plain).toFixed(2)} ms (difference ${roundTrip.toFixed(2)} ms, over ${runs} runs)`,
    );
    expect(gap).toBeLessThan(20);
    expect(roundTrip).toBeLessThan(20);
  });
});

function median(values: number[]): number {
  return percentile(values, 0.5);
}

function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))]!;
}
