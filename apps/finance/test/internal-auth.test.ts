import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { INTERNAL_AUTH_HEADER, createInternalSigner, createServiceClient } from "@hearth/service-kit";
import { contextOf, expectAppError, newActor, startFinance, type RunningFinance } from "./support";

let finance: RunningFinance;

beforeAll(async () => {
  finance = await startFinance();
});
afterAll(async () => finance?.stop());

/** A raw tRPC query, with or without an internal token: what reaches the service if the client is bypassed. */
async function rawQuery(procedure: string, token?: string) {
  const headers: Record<string, string> = token ? { [INTERNAL_AUTH_HEADER]: token } : {};
  const res = await fetch(`${finance.url}/trpc/${procedure}?input=${encodeURIComponent("{}")}`, { headers });
  const body = (await res.json()) as { error?: { data?: { appError?: { code?: string } } } };
  return { status: res.status, code: body.error?.data?.appError?.code };
}

describe("finance internal authentication", () => {
  it("serves a call signed by the gateway with the shared secret for this service", async () => {
    await expect(finance.call("tags.list", "query", {}, contextOf(newActor()))).resolves.toEqual([]);
  });

  it("refuses a call without the internal auth header with 401 unauthorized", async () => {
    expect(await rawQuery("tags.list")).toEqual({ status: 401, code: "unauthorized" });
  });

  it("refuses a token signed with another secret", async () => {
    const forged = createServiceClient({ service: "finance", url: finance.url, caller: "gateway", internalAuthSecret: randomBytes(32).toString("hex") });
    await expectAppError(forged("tags.list", "query", {}, contextOf(newActor())), "unauthorized");
  });

  it("refuses a token addressed to another service", async () => {
    const misaddressed = createServiceClient({ service: "chat", url: finance.url, caller: "gateway", internalAuthSecret: finance.internalAuthSecret });
    await expectAppError(misaddressed("tags.list", "query", {}, contextOf(newActor())), "unauthorized");
  });

  it("refuses an expired token", async () => {
    const sign = createInternalSigner(finance.internalAuthSecret, "gateway");
    vi.useFakeTimers({ toFake: ["Date"] });
    let expired: string;
    try {
      vi.setSystemTime(Date.now() - 120_000); // tokens live 60 s
      expired = await sign("finance", contextOf(newActor()));
    } finally {
      vi.useRealTimers();
    }
    expect(await rawQuery("tags.list", expired)).toEqual({ status: 401, code: "unauthorized" });
    // The same token signed now is accepted: only its age was wrong.
    expect((await rawQuery("tags.list", await sign("finance", contextOf(newActor())))).status).toBe(200);
  });

  it("checks the route's scope itself: a read-only actor cannot write even with a valid token", async () => {
    const reader = newActor({ scopes: ["read"], authMethod: "api_key" });
    await expectAppError(finance.call("tags.create", "mutation", { tag: { name: "Nope" } }, contextOf(reader)), "insufficient_scope");
    await expect(finance.call("tags.list", "query", {}, contextOf(reader))).resolves.toEqual([]);
    expect(await finance.db.tag.count({ where: { familyId: reader.familyId } })).toBe(0);
  });

  it("refuses a valid token that carries no acting user for a public route", async () => {
    await expectAppError(finance.call("tags.list", "query", {}, contextOf(null)), "unauthorized");
  });

  it("refuses a signed context whose actor is malformed", async () => {
    const sign = createInternalSigner(finance.internalAuthSecret, "gateway");
    const token = await sign("finance", { requestId: "r", actor: { ...newActor(), familyId: "not-a-uuid" } });
    expect(await rawQuery("tags.list", token)).toEqual({ status: 401, code: "unauthorized" });
  });
});
