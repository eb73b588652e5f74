import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PushSubscriptionSchema, type Actor } from "@hearth/contracts";
import { contextOf, expectAppError, newActor, startNotifications, type RunningNotifications } from "./support";

let notifications: RunningNotifications;

beforeAll(async () => {
  notifications = await startNotifications();
});
afterAll(async () => notifications?.stop());

const newToken = () => randomBytes(32).toString("hex");
const register = async (actor: Actor, body: Record<string, unknown>) =>
  PushSubscriptionSchema.parse(await notifications.call("pushSubscriptions.register", "mutation", body, contextOf(actor)));

describe("notifications: push subscriptions", () => {
  it("registers a token for the user and family of the signed context", async () => {
    const actor = newActor();
    const token = newToken();
    const subscription = await register(actor, { token, environment: "sandbox", platform: "ios" });
    expect(subscription).toMatchObject({ environment: "sandbox", platform: "ios" });
    const row = await notifications.db.pushSubscription.findUniqueOrThrow({ where: { id: subscription.id } });
    expect(row).toMatchObject({ userId: actor.userId, familyId: actor.familyId, token });
  });

  it("updates the same row (same id) when the user registers the token again", async () => {
    const actor = newActor();
    const token = newToken();
    const first = await register(actor, { token, environment: "sandbox", platform: "ios" });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const again = await register(actor, { token, environment: "production", platform: "ios" });
    expect(again.id).toBe(first.id);
    expect(again.environment).toBe("production");
    expect(Date.parse(again.last_registered_at)).toBeGreaterThan(Date.parse(first.last_registered_at));
    expect(await notifications.db.pushSubscription.count({ where: { token } })).toBe(1);
  });

  it("keeps one row per user for the same token: another user's registration does not touch it", async () => {
    const token = newToken();
    const alice = newActor();
    const mine = await register(alice, { token, environment: "sandbox", platform: "ios" });
    const theirs = await register(newActor({ familyId: alice.familyId }), { token, environment: "production", platform: "ios" });
    expect(theirs.id).not.toBe(mine.id);
    expect(await notifications.db.pushSubscription.findUniqueOrThrow({ where: { id: mine.id } })).toMatchObject({
      userId: alice.userId,
      environment: "sandbox",
    });
  });

  it("answers every concurrent registration of the same new token with the one row", async () => {
    const actor = newActor();
    const token = newToken();
    const results = await Promise.all(Array.from({ length: 8 }, () => register(actor, { token, environment: "sandbox", platform: "ios" })));
    expect(new Set(results.map((subscription) => subscription.id)).size).toBe(1);
    expect(await notifications.db.pushSubscription.count({ where: { token } })).toBe(1);
  });

  it("answers validation_failed for a token that is not 64 to 200 lowercase hex characters, or a bad environment or platform", async () => {
    const actor = newActor();
    const bad = [
      { token: "a".repeat(63), environment: "sandbox", platform: "ios" },
      { token: "a".repeat(201), environment: "sandbox", platform: "ios" },
      { token: "A".repeat(64), environment: "sandbox", platform: "ios" },
      { token: "a".repeat(64), environment: "staging", platform: "ios" },
      { token: "a".repeat(64), environment: "sandbox", platform: "android" },
      { environment: "sandbox", platform: "ios" },
    ];
    for (const body of bad) await expectAppError(register(actor, body), "validation_failed");
    expect(await notifications.db.pushSubscription.count({ where: { userId: actor.userId } })).toBe(0);
  });
});
