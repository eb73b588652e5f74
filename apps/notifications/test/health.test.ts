import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger, createServiceClient, listen, type RunningServer } from "@hearth/service-kit";
import { createFreshDatabases, testPostgresAdminUrl } from "@hearth/test-kit";
import { createNotificationsService } from "../src/app";
import { createNotificationsDb, type NotificationsDb } from "../src/db";
import { contextOf, expectAppError, newActor, startNotifications, type RunningNotifications } from "./support";

let notifications: RunningNotifications;
const broken: { running: RunningServer; db: NotificationsDb }[] = [];

beforeAll(async () => {
  notifications = await startNotifications();
});
afterAll(async () => {
  for (const { running, db } of broken) {
    await running.close();
    await db.$disconnect();
  }
  await notifications?.stop();
});

/** Another notifications server on a database client that cannot work. */
async function startOn(databaseUrl: string) {
  const db = createNotificationsDb(databaseUrl);
  const running = await listen(
    createNotificationsService({ db, log: createLogger("notifications-test", "silent"), internalAuthSecret: notifications.internalAuthSecret }).server,
    0,
  );
  broken.push({ running, db });
  return running;
}

async function getJson(url: string) {
  const res = await fetch(url);
  return { status: res.status, body: (await res.json()) as unknown };
}

describe("notifications /health and /ready", () => {
  it("answers /health 200 naming the service", async () => {
    expect(await getJson(`${notifications.url}/health`)).toEqual({ status: 200, body: { status: "ok", service: "notifications" } });
  });

  it("answers /ready 200 when its database answers", async () => {
    expect(await getJson(`${notifications.url}/ready`)).toEqual({ status: 200, body: { status: "ready", service: "notifications" } });
  });

  it("answers /ready 503 when its database has been dropped, while /health stays 200", async () => {
    const gone = await createFreshDatabases(testPostgresAdminUrl(), ["gone"] as const);
    await gone.drop();
    const server = await startOn(gone.urls.gone);
    expect(await getJson(`${server.url}/ready`)).toEqual({ status: 503, body: { status: "unavailable", service: "notifications" } });
    expect((await getJson(`${server.url}/health`)).status).toBe(200);
  });

  it("answers /ready 503 and calls service_unavailable when its database server refuses connections", async () => {
    const server = await startOn("postgresql://postgres@127.0.0.1:1/notifications");
    expect((await getJson(`${server.url}/ready`)).status).toBe(503);
    const call = createServiceClient({ service: "notifications", url: server.url, caller: "gateway", internalAuthSecret: notifications.internalAuthSecret });
    await expectAppError(
      call("pushSubscriptions.register", "mutation", { token: "cd".repeat(32), environment: "sandbox", platform: "ios" }, contextOf(newActor())),
      "service_unavailable",
    );
  });

  it("answers unknown paths 404", async () => {
    expect((await getJson(`${notifications.url}/nothing-here`)).status).toBe(404);
  });
});
