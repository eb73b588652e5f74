import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { INTERNAL_AUTH_HEADER, createInternalSigner, createServiceClient } from "@hearth/service-kit";
import { contextOf, expectAppError, newActor, startNotifications, type RunningNotifications } from "./support";

let notifications: RunningNotifications;

beforeAll(async () => {
  notifications = await startNotifications();
});
afterAll(async () => notifications?.stop());

const REGISTRATION = { token: "ab".repeat(32), environment: "sandbox", platform: "ios" };

/** A raw tRPC mutation, with or without an internal token: what reaches the service if the client is bypassed. */
async function rawMutation(procedure: string, token?: string) {
  const headers: Record<string, string> = { "content-type": "application/json", ...(token ? { [INTERNAL_AUTH_HEADER]: token } : {}) };
  const res = await fetch(`${notifications.url}/trpc/${procedure}`, { method: "POST", headers, body: JSON.stringify(REGISTRATION) });
  const body = (await res.json()) as { error?: { data?: { appError?: { code?: string } } } };
  return { status: res.status, code: body.error?.data?.appError?.code };
}

describe("notifications internal authentication", () => {
  it("serves a call signed by the gateway with the shared secret for this service", async () => {
    await expect(notifications.call("pushSubscriptions.register", "mutation", REGISTRATION, contextOf(newActor()))).resolves.toMatchObject({
      environment: "sandbox",
    });
  });

  it("refuses a call without the internal auth header with 401 unauthorized", async () => {
    expect(await rawMutation("pushSubscriptions.register")).toEqual({ status: 401, code: "unauthorized" });
  });

  it("refuses a token signed with another secret", async () => {
    const forged = createServiceClient({
      service: "notifications",
      url: notifications.url,
      caller: "gateway",
      internalAuthSecret: randomBytes(32).toString("hex"),
    });
    await expectAppError(forged("pushSubscriptions.register", "mutation", REGISTRATION, contextOf(newActor())), "unauthorized");
  });

  it("refuses a token addressed to another service", async () => {
    const misaddressed = createServiceClient({
      service: "audit",
      url: notifications.url,
      caller: "gateway",
      internalAuthSecret: notifications.internalAuthSecret,
    });
    await expectAppError(misaddressed("pushSubscriptions.register", "mutation", REGISTRATION, contextOf(newActor())), "unauthorized");
  });

  it("refuses an expired token", async () => {
    const sign = createInternalSigner(notifications.internalAuthSecret, "gateway");
    vi.useFakeTimers({ toFake: ["Date"] });
    let expired: string;
    try {
      vi.setSystemTime(Date.now() - 120_000); // tokens live 60 s
      expired = await sign("notifications", contextOf(newActor()));
    } finally {
      vi.useRealTimers();
    }
    expect(await rawMutation("pushSubscriptions.register", expired)).toEqual({ status: 401, code: "unauthorized" });
    // The same token signed now is accepted: only its age was wrong.
    expect((await rawMutation("pushSubscriptions.register", await sign("notifications", contextOf(newActor())))).status).toBe(200);
  });

  it("refuses a valid token that carries no acting user for a public route", async () => {
    await expectAppError(notifications.call("pushSubscriptions.register", "mutation", REGISTRATION, contextOf(null)), "unauthorized");
  });

  it("refuses a signed context whose actor is malformed", async () => {
    const sign = createInternalSigner(notifications.internalAuthSecret, "gateway");
    const token = await sign("notifications", { requestId: "r", actor: { ...newActor(), familyId: "not-a-uuid" } });
    expect(await rawMutation("pushSubscriptions.register", token)).toEqual({ status: 401, code: "unauthorized" });
  });

  it("stores nothing for a refused call", async () => {
    const before = await notifications.db.pushSubscription.count();
    expect((await rawMutation("pushSubscriptions.register")).status).toBe(401);
    const forged = createServiceClient({
      service: "notifications",
      url: notifications.url,
      caller: "gateway",
      internalAuthSecret: randomBytes(32).toString("hex"),
    });
    await expectAppError(forged("pushSubscriptions.register", "mutation", REGISTRATION, contextOf(newActor())), "unauthorized");
    expect(await notifications.db.pushSubscription.count()).toBe(before);
  });
});
