// chat's assistantTools.list and assistantTools.call, as the gateway's MCP endpoint calls them,
// on chat alone (finance unreachable): what a credential is offered, the refusals answered
// without finance, the limits of a call, and a finance outage failing the call. Figures from the
// real finance are checked in assistant-tools.test.ts and the system tests (mcp.test.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ASSISTANT_TOOL_NAMES, ASSISTANT_TOOLS, AssistantToolCallResultSchema, AssistantToolListSchema, type Actor } from "@hearth/contracts";
import { contextOf, expectAppError, newActor, startChat, type RunningChat } from "./support";

let chat: RunningChat;
beforeAll(async () => {
  chat = await startChat();
});
afterAll(async () => chat?.stop());

const READ_TOOLS = ASSISTANT_TOOL_NAMES.filter((name) => ASSISTANT_TOOLS[name].access === "read");

const list = async (actor: Actor) => AssistantToolListSchema.parse(await chat.call("assistantTools.list", "mutation", {}, contextOf(actor))).tools;
const call = async (actor: Actor, input: unknown) =>
  AssistantToolCallResultSchema.parse(await chat.call("assistantTools.call", "mutation", input, contextOf(actor)));

describe("assistantTools.list", () => {
  it("offers the read tools to a read credential and the write tools too only with read_write, each with a JSON Schema", async () => {
    const read = await list(newActor({ scopes: ["read"], authMethod: "api_key" }));
    expect(read.map((tool) => tool.name)).toEqual(READ_TOOLS);
    const write = await list(newActor({ scopes: ["read_write"] }));
    expect(write.map((tool) => tool.name)).toEqual([...READ_TOOLS, "create_tag", "update_transaction"]);
    const createTag = write.find((tool) => tool.name === "create_tag")!;
    expect(createTag).toEqual({
      name: "create_tag",
      description: ASSISTANT_TOOLS.create_tag.description,
      input_schema: expect.objectContaining({ type: "object", required: ["name"] }),
    });
  });

  it("needs an acting user", async () => {
    await expectAppError(chat.call("assistantTools.list", "mutation", {}, contextOf(null)), "unauthorized");
  });
});

describe("assistantTools.call", () => {
  const reader = newActor({ scopes: ["read"], authMethod: "api_key" });

  it("answers an unknown tool, bad arguments and a write without write scope as errors with a hint", async () => {
    expect(await call(reader, { name: "get_weather", arguments: {} })).toEqual({
      is_error: true,
      result: { error: "unknown_tool", hint: expect.stringContaining("get_accounts") },
    });
    expect(await call(reader, { name: "get_transactions", arguments: { per_page: 1000 } })).toEqual({
      is_error: true,
      result: { error: "invalid_arguments", hint: expect.stringContaining("per_page") },
    });
    expect(await call(reader, { name: "create_tag", arguments: { name: "Sneaky" } })).toEqual({
      is_error: true,
      result: { error: "forbidden", hint: expect.stringContaining("read_write") },
    });
  });

  it("refuses a name over 100 characters and arguments over 64 KB of JSON before any tool runs", async () => {
    await expectAppError(call(reader, { name: "x".repeat(101), arguments: {} }), "validation_failed");
    const huge = await expectAppError(call(reader, { name: "get_merchants", arguments: { search: "x".repeat(64 * 1024) } }), "validation_failed");
    expect(huge.message).toContain("64 KB");
    await expectAppError(call(reader, { name: "get_merchants", arguments: ["search"] }), "validation_failed");
    await expectAppError(call(reader, { name: "get_merchants", arguments: { search: "a\u0000b" } }), "validation_failed");
  });

  it("fails (not an error result) when finance cannot be reached", async () => {
    // This chat's finance is an address nothing listens on.
    await expectAppError(call(reader, { name: "get_tags", arguments: {} }), "service_unavailable");
  });
});
