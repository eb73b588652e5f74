import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger, createServiceClient, listen, type RunningServer } from "@hearth/service-kit";
import { createFreshDatabases, testPostgresAdminUrl } from "@hearth/test-kit";
import { createChatService } from "../src/app";
import { createChatDb, type ChatDb } from "../src/db";
import { contextOf, expectAppError, newActor, startChat, type RunningChat } from "./support";

let chat: RunningChat;
const broken: { running: RunningServer; db: ChatDb }[] = [];

beforeAll(async () => {
  chat = await startChat();
});
afterAll(async () => {
  for (const { running, db } of broken) {
    await running.close();
    await db.$disconnect();
  }
  await chat?.stop();
});

/** Another chat server on a database client that cannot work. */
async function startOn(databaseUrl: string) {
  const db = createChatDb(databaseUrl);
  const running = await listen(createChatService({ db, log: createLogger("chat-test", "silent"), internalAuthSecret: chat.internalAuthSecret }).server, 0);
  broken.push({ running, db });
  return running;
}

async function getJson(url: string) {
  const res = await fetch(url);
  return { status: res.status, body: (await res.json()) as unknown };
}

describe("chat /health and /ready", () => {
  it("answers /health 200 naming the service", async () => {
    expect(await getJson(`${chat.url}/health`)).toEqual({ status: 200, body: { status: "ok", service: "chat" } });
  });

  it("answers /ready 200 when its database answers", async () => {
    expect(await getJson(`${chat.url}/ready`)).toEqual({ status: 200, body: { status: "ready", service: "chat" } });
  });

  it("answers /ready 503 when its database has been dropped, while /health stays 200", async () => {
    const gone = await createFreshDatabases(testPostgresAdminUrl(), ["gone"] as const);
    await gone.drop();
    const server = await startOn(gone.urls.gone);
    expect(await getJson(`${server.url}/ready`)).toEqual({ status: 503, body: { status: "unavailable", service: "chat" } });
    expect((await getJson(`${server.url}/health`)).status).toBe(200);
  });

  it("answers /ready 503 and calls service_unavailable when its database server refuses connections", async () => {
    const server = await startOn("postgresql://postgres@127.0.0.1:1/chat");
    expect((await getJson(`${server.url}/ready`)).status).toBe(503);
    const call = createServiceClient({ service: "chat", url: server.url, caller: "gateway", internalAuthSecret: chat.internalAuthSecret });
    await expectAppError(call("chats.list", "query", {}, contextOf(newActor())), "service_unavailable");
  });

  it("answers unknown paths 404", async () => {
    expect((await getJson(`${chat.url}/nothing-here`)).status).toBe(404);
  });
});
