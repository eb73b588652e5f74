import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger, createServiceClient, listen, type RunningServer } from "@hearth/service-kit";
import { createFreshDatabases } from "../databases";
import { testPostgresAdminUrl } from "../infra";
import { expectAppError, startServiceUnderTest, type ServiceUnderTest } from "../service-harness";
import { contextFor, kindOf } from "./procedure-case";
import type { Disconnectable, ServedParts, ServiceBasics } from "./service-basics";

async function getJson(url: string) {
  const res = await fetch(url);
  return { status: res.status, body: (await res.json()) as unknown };
}

/** The service's /health, /ready and unknown paths, with a working database and with two that cannot work. */
export function describeServiceHealth<Db extends Disconnectable, Parts extends ServedParts>(basics: ServiceBasics<Db, Parts>): void {
  const { service } = basics;
  let running: ServiceUnderTest<Db, Parts>;
  const broken: { server: RunningServer; db: Db }[] = [];

  /** Another server of this service on a database client that cannot work. */
  async function startOn(databaseUrl: string) {
    const db = basics.createDb(databaseUrl);
    const parts = basics.create({ db, log: createLogger(`${service}-test`, "silent"), internalAuthSecret: running.internalAuthSecret });
    const server = await listen(parts.server, 0);
    broken.push({ server, db });
    return server;
  }

  describe(`${service} /health and /ready`, () => {
    beforeAll(async () => {
      running = await startServiceUnderTest(basics);
    });
    afterAll(async () => {
      for (const { server, db } of broken) {
        await server.close();
        await db.$disconnect();
      }
      await running?.stop();
    });

    it("answers /health 200 naming the service", async () => {
      expect(await getJson(`${running.url}/health`)).toEqual({ status: 200, body: { status: "ok", service } });
    });

    it("answers /ready 200 when its database answers", async () => {
      expect(await getJson(`${running.url}/ready`)).toEqual({ status: 200, body: { status: "ready", service } });
    });

    it("answers /ready 503 when its database has been dropped, while /health stays 200", async () => {
      const gone = await createFreshDatabases(testPostgresAdminUrl(), ["gone"] as const);
      await gone.drop();
      const server = await startOn(gone.urls.gone);
      expect(await getJson(`${server.url}/ready`)).toEqual({ status: 503, body: { status: "unavailable", service } });
      expect((await getJson(`${server.url}/health`)).status).toBe(200);
    });

    it("answers /ready 503 and calls service_unavailable when its database server refuses connections", async () => {
      const server = await startOn(`postgresql://postgres@127.0.0.1:1/${service}`);
      expect((await getJson(`${server.url}/ready`)).status).toBe(503);
      const call = createServiceClient({ service, url: server.url, caller: "gateway", internalAuthSecret: running.internalAuthSecret });
      for (const c of basics.procedures) await expectAppError(call(c.procedure, kindOf(c), c.input(), contextFor(c)), "service_unavailable");
    });

    it("answers unknown paths 404", async () => {
      expect((await getJson(`${running.url}/nothing-here`)).status).toBe(404);
    });
  });
}
