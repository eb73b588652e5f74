import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { INTERNAL_AUTH_HEADER, createInternalSigner, createServiceClient } from "@hearth/service-kit";
import { contextOf, expectAppError, newActor, startChat, type RunningChat } from "./support";

let chat: RunningChat;

beforeAll(async () => {
  chat = await startChat();
});
afterAll(async () => chat?.stop());

/** A raw tRPC query, with or without an internal token: what reaches the service if the client is bypassed. */
async function rawQuery(procedure: string, token?: string) {
  const headers: Record<string, string> = token ? { [INTERNAL_AUTH_HEADER]: token } : {};
  const res = await fetch(`${chat.url}/trpc/${procedure}?input=${encodeURIComponent("{}")}`, { headers });
  const body = (await res.json()) as { error?: { data?: { appError?: { code?: string } } } };
  return { status: res.status, code: body.error?.data?.appError?.code };
}

describe("chat internal authentication", () => {
  it("serves a call signed by the gateway with the shared secret for this service", async () => {
    await expect(chat.call("chats.list", "query", {}, contextOf(newActor()))).resolves.toMatchObject({ chats: [], pagination: { total_count: 0 } });
  });

  it("refuses a call without the internal auth header with 401 unauthorized", async () => {
    expect(await rawQuery("chats.list")).toEqual({ status: 401, code: "unauthorized" });
  });

  it("refuses a token signed with another secret", async () => {
    const forged = createServiceClient({ service: "chat", url: chat.url, caller: "gateway", internalAuthSecret: randomBytes(32).toString("hex") });
    await expectAppError(forged("chats.list", "query", {}, contextOf(newActor())), "unauthorized");
  });

  it("refuses a token addressed to another service", async () => {
    const misaddressed = createServiceClient({ service: "finance", url: chat.url, caller: "gateway", internalAuthSecret: chat.internalAuthSecret });
    await expectAppError(misaddressed("chats.list", "query", {}, contextOf(newActor())), "unauthorized");
  });

  it("refuses an expired token", async () => {
    const sign = createInternalSigner(chat.internalAuthSecret, "gateway");
    vi.useFakeTimers({ toFake: ["Date"] });
    let expired: string;
    try {
      vi.setSystemTime(Date.now() - 120_000); // tokens live 60 s
      expired = await sign("chat", contextOf(newActor()));
    } finally {
      vi.useRealTimers();
    }
    expect(await rawQuery("chats.list", expired)).toEqual({ status: 401, code: "unauthorized" });
    // The same token signed now is accepted: only its age was wrong.
    expect((await rawQuery("chats.list", await sign("chat", contextOf(newActor())))).status).toBe(200);
  });

  it("refuses a valid token that carries no acting user for a public route", async () => {
    await expectAppError(chat.call("chats.list", "query", {}, contextOf(null)), "unauthorized");
  });

  it("refuses a signed context whose actor is malformed", async () => {
    const sign = createInternalSigner(chat.internalAuthSecret, "gateway");
    const token = await sign("chat", { requestId: "r", actor: { ...newActor(), familyId: "not-a-uuid" } });
    expect(await rawQuery("chats.list", token)).toEqual({ status: 401, code: "unauthorized" });
  });
});
