import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger, createServiceClient, listen, type RunningServer } from "@hearth/service-kit";
import { createFreshDatabases, testPostgresAdminUrl } from "@hearth/test-kit";
import { createFinanceService } from "../src/app";
import { createFinanceDb, type FinanceDb } from "../src/db";
import { contextOf, expectAppError, newActor, startFinance, type RunningFinance } from "./support";

let finance: RunningFinance;
const broken: { running: RunningServer; db: FinanceDb }[] = [];

beforeAll(async () => {
  finance = await startFinance();
});
afterAll(async () => {
  for (const { running, db } of broken) {
    await running.close();
    await db.$disconnect();
  }
  await finance?.stop();
});

/** Another finance server on a database client that cannot work. */
async function startOn(databaseUrl: string) {
  const db = createFinanceDb(databaseUrl);
  const running = await listen(
    createFinanceService({ db, log: createLogger("finance-test", "silent"), internalAuthSecret: finance.internalAuthSecret }).server,
    0,
  );
  broken.push({ running, db });
  return running;
}

async function getJson(url: string) {
  const res = await fetch(url);
  return { status: res.status, body: (await res.json()) as unknown };
}

describe("finance /health and /ready", () => {
  it("answers /health 200 naming the service", async () => {
    expect(await getJson(`${finance.url}/health`)).toEqual({ status: 200, body: { status: "ok", service: "finance" } });
  });

  it("answers /ready 200 when its database answers", async () => {
    expect(await getJson(`${finance.url}/ready`)).toEqual({ status: 200, body: { status: "ready", service: "finance" } });
  });

  it("answers /ready 503 when its database has been dropped, while /health stays 200", async () => {
    const gone = await createFreshDatabases(testPostgresAdminUrl(), ["gone"] as const);
    await gone.drop();
    const server = await startOn(gone.urls.gone);
    expect(await getJson(`${server.url}/ready`)).toEqual({ status: 503, body: { status: "unavailable", service: "finance" } });
    expect((await getJson(`${server.url}/health`)).status).toBe(200);
  });

  it("answers /ready 503 and calls service_unavailable when its database server refuses connections", async () => {
    const server = await startOn("postgresql://postgres@127.0.0.1:1/finance");
    expect((await getJson(`${server.url}/ready`)).status).toBe(503);
    const call = createServiceClient({ service: "finance", url: server.url, caller: "gateway", internalAuthSecret: finance.internalAuthSecret });
    await expectAppError(call("tags.list", "query", {}, contextOf(newActor())), "service_unavailable");
  });

  it("answers unknown paths 404", async () => {
    expect((await getJson(`${finance.url}/nothing-here`)).status).toBe(404);
  });
});
